import { defineConfig } from "vitest/config";

// Two projects, split by folder so a new test file lands in the right one by where it lives:
// `e2e` runs the built CLI and daemon (dist/, built once by its global setup) and the tests that
// need PostgreSQL; `unit` is everything else, in-process, and starts at once without a build.
// `npx vitest run --project unit` is the quick loop; `npm test` runs both.

const E2E = [
  "test/e2e/**/*.test.ts",
  "test/daemon/**/*.test.ts",
  "test/faults/**/*.test.ts",
  "test/postgres/**/*.test.ts",
  // A store's tests that run against PostgreSQL too, wherever they live.
  "test/**/*postgres*.test.ts",
  "test/**/ledger-contract*.test.ts",
  // Contracts that every store keeps (the day store's too) run against PostgreSQL as well.
  "test/state/*-contract.test.ts",
];

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: "forks",
    // Vitest runs one file at a time on 2 cores (cores - 1), but most of this suite waits:
    // on child processes, on servers, on a database stopped for 20 s. Three files at once keep
    // both cores busy.
    poolOptions: { forks: { maxForks: 3, minForks: 1 } },
    // Far from UTC (+14), so a date built in the machine's zone instead of UTC shows up as a
    // shifted day in the tests, wherever they run.
    env: { TZ: "Pacific/Kiritimati" },
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["test/**/*.test.ts"], exclude: E2E },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: E2E,
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
