import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/build-cli.global-setup.ts", "test/postgres.global-setup.ts"],
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
  },
});
