import { join } from "node:path";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backfillCommand } from "../../src/commands/backfill-command.js";
import { exportCommand } from "../../src/commands/export-command.js";
import { loadConfig } from "../../src/config/load-config.js";
import { createApiClient } from "../../src/create-deps.js";
import { renderSlackDigest } from "../../src/destinations/slack/messages/slack-digest.js";
import { createRequestCache } from "../../src/insights/collect-insights.js";
import { type RunningEmulator, startEmulator } from "../../src/insights/emulator/start-emulator.js";
import { silentLogger } from "../../src/logger.js";
import { buildDigestReport } from "../../src/pipeline/digest/report-stage.js";
import { Secret } from "../../src/secret.js";
import { API_KEY, tempDir, writeConfig } from "../e2e/e2e-setup.js";
import { testClient } from "./client-builders.js";

// Beyond the API's 3 months, over the emulator whose today moves with the test's clock: a
// store filled a year ago answers a quarter digest compared with the same quarter last year,
// and an export of last winter; the days it never held are named, never shown as zeros.

let clock = 0;
let emulator: RunningEmulator;
let dirs: Awaited<ReturnType<typeof tempDir>>;
let configPath: string;
/** The API's figures for the days of Q1 2025 it still served on 2025-04-15 (from 01-15), per project. */
const servedInApril = new Map<string, { runs: number; testsFailed: number }>();

const quiet = { isTTY: false } as NodeJS.WriteStream;
const now = () => new Date(clock);
const insightsRequests = () =>
  emulator.requestLog.filter((request) => request.path.endsWith("/insights"));

beforeAll(async () => {
  clock = Date.parse("2025-04-15T10:00:00Z");
  emulator = await startEmulator({ now, key: API_KEY, projects: 2 });
  dirs = await tempDir();
  configPath = await writeConfig(dirs.dir, {
    api: { url: emulator.url, key: API_KEY },
    state: { path: join(dirs.dir, "ledger.sqlite") },
    teams: [
      {
        name: "checkout",
        timezone: "Europe/Berlin",
        projects: emulator.projects.map((p) => ({ id: p.id })),
        digests: [
          {
            name: "quarterly",
            schedule: "0 8 1 1,4,7,10 *",
            period: "previous_quarter",
            compare_to: "same_period_last_year",
            slack: { channel: "C0123ABCD" },
          },
        ],
      },
    ],
  });
  const { client } = testClient(emulator.url, { now: () => clock, key: new Secret(API_KEY) });
  for (const project of emulator.projects) {
    const served = await client.getInsights(project.id, {
      startDate: "2025-01-15",
      endDate: "2025-03-31",
      timezone: "Europe/Berlin",
      branch: null,
      author: null,
      tags: [],
    });
    const { runs, tests } = served.overall;
    servedInApril.set(project.id, { runs: runs.passed + runs.failed, testsFailed: tests.failed });
  }
  await client.close();
  // The store is filled in April 2025 (the backfill starts on 01-15, the first day the API serves), and again in March 2026.
  expect(await backfillCommand({ config: configPath }, () => {}, now, quiet)).toBe(0);
  clock = Date.parse("2026-03-01T10:00:00Z");
  expect(await backfillCommand({ config: configPath }, () => {}, now, quiet)).toBe(0);
});
afterAll(async () => {
  await emulator.close();
  await dirs.remove();
});

describe("beyond the API's lookback", () => {
  it("a quarter digest compares with the same quarter last year from the store, naming the days it lacks", async () => {
    // 08:00 on 1 April in Berlin (summer time since 29 March): Q1 2026 against Q1 2025.
    const fireAt = new Date("2026-04-01T06:00:00Z");
    clock = fireAt.getTime();
    const config = loadConfig(configPath, { env: {}, requireCredentials: false });
    const team = config.teams[0];
    const digest = team?.digests[0];
    if (!team || !digest) throw new Error("the config has no quarterly digest");
    const api = createApiClient(config, undefined, undefined, () => clock);
    emulator.requestLog.length = 0;
    try {
      const { report } = await buildDigestReport(
        { team, digest, fireAt },
        { api, cache: createRequestCache(), logger: silentLogger() },
      );
      expect(report.periods.current).toEqual({ start: "2026-01-01", end: "2026-03-31" });
      expect(report.periods.prior).toEqual({ start: "2025-01-01", end: "2025-03-31" });
      for (const project of report.projects) {
        if (project.status !== "ok") throw new Error(`${project.projectId} is unavailable`);
        expect(project.prior, project.priorNote ?? "").not.toBeNull();
        const served = servedInApril.get(project.projectId);
        expect({ runs: project.prior?.runs, testsFailed: project.prior?.testsFailed }).toEqual(
          served,
        );
        expect(project.missingDays.prior).toHaveLength(14);
      }
      expect(report.missingDaysNote).toMatch(
        /^No figures for 2025-01-01\.\.2025-01-14 of the prior period: older than the insights API's 3 months and not in the day store/,
      );
      expect(JSON.stringify(renderSlackDigest(report, { key: "k" }))).toContain(
        "No figures for 2025-01-01..2025-01-14 of the prior period",
      );
      // Last year's days come from the store: the days it never held are past the API's
      // lookback, which refuses them, so they are not asked.
      const lastYear = insightsRequests().filter((r) => String(r.query.start_date) < "2026");
      expect(lastYear).toEqual([]);
      expect(insightsRequests()).not.toEqual([]);
    } finally {
      await api.close();
    }
  });

  it("an export of last winter reads the store, and its About sheet names the days it lacks", async () => {
    clock = Date.parse("2026-04-01T10:00:00Z");
    const out: string[] = [];
    const xlsx = join(dirs.dir, "winter.xlsx");
    emulator.requestLog.length = 0;
    const code = await exportCommand(
      { team: "checkout", from: "2025-01-10", to: "2025-02-20", out: xlsx, config: configPath },
      (line) => out.push(line),
      now,
      quiet,
    );
    expect(code, out.join("\n")).toBe(0);
    expect(out.join("\n")).toContain("No figures for 2025-01-10..2025-01-14 of the period");
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(xlsx);
    const about: string[] = [];
    book.getWorksheet("About")?.eachRow((row) => {
      about.push((row.values as unknown[]).filter(Boolean).join(" | "));
    });
    expect(about.find((line) => line.startsWith("Missing days"))).toContain(
      "2025-01-10..2025-01-14 of the period",
    );
    // The days held are never asked again, and the ones the store never had are past the
    // API's lookback: nothing is asked.
    expect(insightsRequests()).toEqual([]);
  });
});
