import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openLedger } from "../../src/state/sqlite/open-ledger.js";
import { unwrapLines } from "../support/unwrap-lines.js";
import { apiSection, tempDir, writeConfig } from "./e2e-setup.js";
import { requireBuiltCli, runCli } from "./run-cli.js";

/**
 * `history` as a user runs it: from the ledger alone, with no API credentials, and with the
 * mistakes named rather than answered with an empty table.
 */

let dirs: Awaited<ReturnType<typeof tempDir>>;
let configPath: string;

beforeAll(async () => {
  requireBuiltCli();
  dirs = await tempDir();
  const ledgerPath = join(dirs.dir, "ledger.sqlite");
  configPath = await writeConfig(dirs.dir, {
    api: apiSection(),
    state: { path: ledgerPath },
    teams: [
      {
        name: "checkout",
        timezone: "Europe/Berlin",
        projects: [{ id: "dlucmsz" }],
        digests: [
          {
            name: "daily",
            schedule: "0 9 * * 1-5",
            period: "previous_day",
            slack: { channel: "C0123ABCD" },
          },
        ],
      },
    ],
  });
  const ledger = openLedger(ledgerPath);
  await ledger.recordSlot({
    key: "checkout.daily.2026-11-17",
    team: "checkout",
    kind: "digest",
    job: "daily",
    fireAt: new Date("2026-11-18T08:00:00Z"),
    period: { start: "2026-11-17", end: "2026-11-17" },
    destinations: ["slack:C0123ABCD"],
  });
  await ledger.close();
});
afterAll(async () => {
  await dirs.remove();
});

describe("history", () => {
  it("lists the ledger's slots without any API credentials in the environment", async () => {
    const result = await runCli(["history", "--config", configPath]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/checkout\.daily\.2026-11-17\s+slack:C0123ABCD\s+pending\s+0/);
  });

  it("shows each fire in UTC, or in the zone --tz names", async () => {
    const utc = await runCli(["history", "--config", configPath]);
    expect(utc.stdout.split("\n").slice(0, 2)).toEqual([
      "FIRED (UTC)       SLOT",
      "2026-11-18 08:00  checkout.daily.2026-11-17",
    ]);
    const berlin = await runCli(["history", "--tz", "Europe/Berlin", "--config", configPath]);
    expect(berlin.stdout.split("\n").slice(0, 2)).toEqual([
      "FIRED (Europe/Berlin)  SLOT",
      "2026-11-18 09:00       checkout.daily.2026-11-17",
    ]);
  });

  it("refuses a --tz that is not an IANA zone (exit 2)", async () => {
    const result = await runCli(["history", "--tz", "Mars/Olympus", "--config", configPath]);
    expect(result.code).toBe(2);
    expect(unwrapLines(result.stderr)).toContain(
      '--tz "Mars/Olympus" is not an IANA timezone name',
    );
  });

  it("names a team that is not in the config, with the teams there are (exit 2)", async () => {
    const result = await runCli(["history", "--team", "checkot", "--config", configPath]);
    expect(result.code).toBe(2);
    expect(unwrapLines(result.stderr)).toContain('no team "checkot"');
    expect(unwrapLines(result.stderr)).toContain("checkout");
  });

  it("refuses --limit 0 (exit 2) instead of saying there are no slots", async () => {
    const result = await runCli(["history", "--limit", "0", "--config", configPath]);
    expect(result.code).toBe(2);
    expect(unwrapLines(result.stderr)).toContain('"0" must be 1 or more');
  });
});
