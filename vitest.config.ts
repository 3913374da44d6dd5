import { defineConfig } from "vitest/config";

// Two projects, split by folder or by the suffix `.e2e.test.ts`, never by a name's words:
// `e2e` runs the built CLI and daemon (dist/, built once by its global setup) and the tests that
// need PostgreSQL; `unit` is everything else, in-process, and starts at once without a build.
// `npx vitest run --project unit` is the quick loop; `npm test` runs both.

const E2E = [
  "test/e2e/**/*.test.ts",
  "test/daemon/**/*.test.ts",
  "test/faults/**/*.test.ts",
  "test/postgres/**/*.test.ts",
  // A test elsewhere that needs the built CLI or PostgreSQL (a store's contract, the replicas'
  // request window) says so in its name.
  "test/**/*.e2e.test.ts",
];

// Far from UTC (+14), so a date built in the machine's zone instead of UTC shows up as a shifted
// day in the tests, wherever they run. Set here, in vitest's own process, rather than in `env`:
// worker threads share their process's time zone, and `env` only reaches their process.env.
process.env.TZ = "Pacific/Kiritimati";

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: "forks",
    poolOptions: {
      // Vitest runs one file at a time on 2 cores (cores - 1), but most of this suite waits:
      // on child processes, on servers, on a database stopped for 20 s. Three files at once
      // keep both cores busy.
      forks: { maxForks: 3, minForks: 1 },
      // The unit project's pool (see below). Its files share no state (no globals, no env, no
      // chdir, no fake timers: each opens its own ledgers, servers and temp dirs), so a thread
      // keeps the modules it loaded for the next file instead of starting a fresh process and
      // loading src/ and its libraries again for each of 126 files. Measured on 2 cores beside
      // other work (load 15-19, 2026-11-25): 131 s CPU and 234 s wall in forks, 45 s CPU and
      // 93-97 s wall here; passes with --sequence.shuffle too. minThreads = maxThreads: a
      // thread ended while idle between files was seen to fail the run ("Terminating worker
      // thread").
      threads: { maxThreads: 3, minThreads: 3, isolate: false },
    },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["test/**/*.test.ts"],
          exclude: E2E,
          pool: "threads",
          // Vitest runs projects of different pools at the same time unless their groups
          // differ: unit first, then e2e. Side by side, 3 busy unit threads beside 3 e2e
          // forks on 2 cores timed out 9 e2e tests (load 14, 2026-11-25); one after the other,
          // e2e runs as it did before the unit project had threads of its own.
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: E2E,
          sequence: { groupOrder: 1 },
          // Processes, servers and a database on 2 shared cores: a kill-and-restart test that
          // takes 11 s on an idle machine took over 20 s beside the rest of the suite and other
          // work (seen 2026-11-25). The tests wait on signals; this is only how long a hung one
          // may take to fail.
          testTimeout: 60_000,
          hookTimeout: 60_000,
          globalSetup: ["test/build-cli.global-setup.ts", "test/postgres.global-setup.ts"],
        },
      },
    ],
  },
});
