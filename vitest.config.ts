import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/build-cli.global-setup.ts", "test/postgres.global-setup.ts"],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: "forks",
    // Far from UTC (+14), so a date built in the machine's zone instead of UTC shows up as a
    // shifted day in the tests, wherever they run.
    env: { TZ: "Pacific/Kiritimati" },
  },
});
