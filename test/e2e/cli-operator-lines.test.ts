import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../src/insights/emulator/start-emulator.js";
import { API_KEY, apiEnv, apiSection, IDS, tempDir, writeConfig } from "./e2e-setup.js";
import { requireBuiltCli, runCli } from "./run-cli.js";

// The operator's commands, piped (80 columns): every line fits, breaks between words, and says
// what the command left out — `export`'s notes, `store`'s series by name, `backfill`'s days
// beyond the API's reach, `preview --team` listing what there is to preview.

let emulator: RunningEmulator;
let dirs: Awaited<ReturnType<typeof tempDir>>;
let config: string;

beforeAll(async () => {
  requireBuiltCli();
  // Today by the real clock, as the CLI in its own process counts it.
  emulator = await startEmulator({ key: API_KEY, projects: 3 });
  dirs = await tempDir();
  config = await writeConfig(dirs.dir, {
    api: apiSection(),
    state: { path: join(dirs.dir, "a-rather-long-folder-name-for-the-ledger", "reporter.sqlite") },
    teams: [
      {
        name: "checkout",
        timezone: "America/Argentina/Buenos_Aires",
        projects: [
          { id: IDS.webE2e, branch: "release/2026-q4-hotfixes", tags: ["regression", "nightly"] },
          { id: IDS.checkoutApi },
          { id: IDS.mobileSmoke, name: "Mobile smoke (named here)" },
        ],
        digests: [
          {
            name: "weekly",
            schedule: "0 8 * * 1",
            period: "previous_week",
            slack: { channel: "C0123ABCD" },
          },
          {
            name: "daily",
            schedule: "0 9 * * 1-5",
            period: "previous_day",
            slack: { channel: "C0123ABCD" },
          },
        ],
        alerts: [
          {
            name: "flaky-rate",
            metric: "flaky_rate",
            window: "previous_day",
            schedule: "0 9 * * *",
            warn_at: 3,
            clear_at: 2.5,
            critical_at: 5,
            slack: { channel: "C0123ABCD" },
          },
        ],
      },
    ],
  });
});
afterAll(async () => {
  await emulator.close();
  await dirs.remove();
});

const cli = (args: string[]) =>
  runCli([...args, "--config", config], {
    env: apiEnv(emulator.url),
    cwd: dirs.dir,
    timeoutMs: 60_000,
  });

/** Three weeks ago: well inside the API's 3 months. */
const FROM = new Date(Date.now() - 21 * 86_400_000).toISOString().slice(0, 10);

/** Every line of `text` fits 80 columns. */
function expectFits(text: string): void {
  const long = text.split("\n").filter((line) => line.length > 80);
  expect(long).toEqual([]);
}

/** The text as one line of words: what a reader reads, however it was broken. */
const words = (text: string) => text.split(/\s+/).filter(Boolean).join(" ");

describe("operator commands at 80 columns", () => {
  it("export breaks its notes between words", async () => {
    const out = join(dirs.dir, "exports", "checkout-november-review.xlsx");
    const result = await cli([
      "export",
      "--team",
      "checkout",
      "--from",
      FROM,
      "--to",
      "2099-12-31",
      "--out",
      out,
    ]);
    expect(result.code, result.stderr).toBe(0);
    expectFits(result.stdout);
    expect(words(result.stdout)).toMatch(
      new RegExp(
        `--to 2099-12-31 is after the last day the API has \\((\\d{4}-\\d\\d-\\d\\d)\\): the workbook covers ${FROM}\\.\\.\\1`,
      ),
    );
  });

  it("backfill --from before the API's reach says which asked days are beyond it and not in the store", async () => {
    const result = await cli(["backfill", "--from", "2025-01-01"]);
    expect(result.code, result.stderr).toBe(0);
    expectFits(result.stdout);
    const text = words(result.stdout);
    expect(text).toContain("beyond the API's reach");
    expect(text).toMatch(/2025-01-01\.\.\d{4}-\d\d-\d\d/);
    expect(text).toContain("not in the store");
  });

  it("store shows each series by name, with its filters, first and last day and days missing", async () => {
    const result = await cli(["store"]);
    expect(result.code, result.stderr).toBe(0);
    expectFits(result.stdout);
    const text = words(result.stdout);
    expect(text).toContain(`Web E2E (${IDS.webE2e})`);
    expect(text).toContain("branch release/2026-q4-hotfixes");
    expect(text).toContain("Mobile smoke (named here)");
    expect(text).toMatch(/first day 20\d\d-\d\d-\d\d/);
    expect(text).toMatch(/last day 20\d\d-\d\d-\d\d/);
    expect(text).toMatch(/no day missing|\d+ days? missing/);
  });

  it("store without an answer from the API shows the ids and says how to get the names", async () => {
    // Nothing listens on the discard port: the API cannot be reached.
    const result = await runCli(["store", "--config", config], {
      env: apiEnv("http://127.0.0.1:9/api/external/v1"),
      cwd: dirs.dir,
      timeoutMs: 60_000,
    });
    expect(result.code, result.stderr).toBe(0);
    expectFits(result.stdout);
    const text = words(result.stdout);
    expect(text).toContain(IDS.checkoutApi);
    expect(text).toMatch(
      /names not shown, .* — check INSIGHTS_API_URL and INSIGHTS_API_KEY with `check-config --online`, or give each project a name: in the config/,
    );
  });

  it("run and preview break the fire they took between words", async () => {
    const run = await cli([
      "run",
      "--team",
      "checkout",
      "--digest",
      "weekly",
      "--outbox",
      join(dirs.dir, "outbox"),
    ]);
    expect(run.code, run.stderr).toBe(0);
    const preview = await cli(["preview", "--team", "checkout", "--digest", "weekly"]);
    expect(preview.code, preview.stderr).toBe(0);
    for (const stdout of [run.stdout, preview.stdout]) {
      // The fire's line and what it wrapped onto, up to the next line of its own.
      const fire = /^checkout\.weekly\.\S+: the fire of .*(\n {2}.*)*/m.exec(stdout)?.[0] ?? "";
      expectFits(fire);
      expect(words(fire)).toMatch(
        /^checkout\.weekly\.\S+: the fire of Mon \w{3} \d+ 08:00 \S+, covering Mon \w{3} \d+ – Sun \w{3} \d+$/,
      );
    }
  });

  it("preview --team without --digest lists the team's digests and alerts", async () => {
    const result = await cli(["preview", "--team", "checkout"]);
    expect(result.code, result.stderr).toBe(0);
    expectFits(result.stdout);
    const text = words(result.stdout);
    expect(text).toContain("weekly");
    expect(text).toContain("daily");
    expect(text).toContain("flaky-rate");
    expect(text).toContain("preview --team checkout --digest weekly");
    expect(text).toContain("preview --team checkout --alert flaky-rate");
  });
});
