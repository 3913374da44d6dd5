import { DateTime } from "luxon";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collectInsights, createRequestCache } from "../../src/insights/collect-insights.js";
import {
  createInsightsClient,
  type InsightsClient,
} from "../../src/insights/create-insights-client.js";
import type { EmulatorRun } from "../../src/insights/emulator/start-emulator.js";
import { type RunningEmulator, startEmulator } from "../../src/insights/emulator/start-emulator.js";
import type { PeriodPair } from "../../src/periods/types.js";
import { renderWorkbook } from "../../src/render/workbook/workbook.js";
import { buildReport } from "../../src/report/build-report.js";
import { Secret } from "../../src/secret.js";
import { loadWorkbook, records, sheet, value } from "./workbook-read.js";

/**
 * The workbook against the emulator end to end: insights fetched over HTTP, the report built,
 * the workbook written and read back; a few cells recomputed here from the emulator's raw runs,
 * independently of the code under test.
 */

const ZONE = "Pacific/Auckland";
const PERIODS: PeriodPair = {
  kind: "last_7_days",
  compareTo: "previous_period",
  current: { start: "2026-11-09", end: "2026-11-15" },
  prior: { start: "2026-11-02", end: "2026-11-08" },
};

let emulator: RunningEmulator;
let api: InsightsClient;

beforeAll(async () => {
  emulator = await startEmulator({ today: "2026-11-16", projects: 3, seed: "workbook" });
  api = createInsightsClient({
    baseUrl: emulator.url,
    key: new Secret("demo-key"),
    concurrency: 2,
  });
});
afterAll(async () => {
  await api.close();
  await emulator.close();
});

/** Runs whose start falls on one of `dates` in the zone. */
function runsOn(runs: readonly EmulatorRun[], dates: readonly string[]): EmulatorRun[] {
  return runs.filter((r) =>
    dates.includes(DateTime.fromISO(r.startedAt, { zone: "utc" }).setZone(ZONE).toISODate() ?? ""),
  );
}

function daysOf(start: string, end: string): string[] {
  const out: string[] = [];
  for (
    let d = DateTime.fromISO(start, { zone: "utc" });
    (d.toISODate() ?? "") <= end;
    d = d.plus({ days: 1 })
  ) {
    out.push(d.toISODate() ?? "");
  }
  return out;
}

describe("workbook from the emulator", () => {
  it("holds the counts the emulator's raw runs give, in Runs, Tests and Daily", async () => {
    const projects = emulator.projects.map((p) => ({
      id: p.id,
      name: null,
      branch: null,
      author: null,
      tags: [],
    }));
    const collected = await collectInsights(
      api,
      { projects, timezone: ZONE },
      PERIODS,
      createRequestCache(),
    );
    const report = buildReport({
      team: { name: "checkout", title: "Checkout squad", timezone: ZONE },
      digest: "weekly",
      periods: PERIODS,
      generatedAt: "2026-11-16T00:00:00.000Z",
      dashboardUrl: null,
      projects: collected,
    });
    const book = await loadWorkbook(await renderWorkbook(report));
    const runsSheet = records(sheet(book, "Runs"));
    const testsSheet = records(sheet(book, "Tests"));
    const daily = records(sheet(book, "Daily"));
    const week = daysOf(PERIODS.current.start, PERIODS.current.end);

    let checked = 0;
    for (const project of emulator.projects) {
      const runs = runsOn(project.runs, week);
      const row = runsSheet.find((r) => value(r, "Project ID") === project.id);
      expect(row && value(row, "Project"), project.id).toBe(project.name);
      expect(row && value(row, "Runs")).toBe(runs.length);
      expect(row && value(row, "Runs passed")).toBe(
        runs.filter((r) => r.status === "passed").length,
      );
      const tests = testsSheet.find((r) => value(r, "Project") === project.name);
      expect(tests && value(tests, "Tests flaky")).toBe(
        runs.reduce((s, r) => s + r.tests.flaky, 0),
      );
      expect(tests && value(tests, "Tests timed out")).toBe(
        runs.reduce((s, r) => s + r.tests.timedOut, 0),
      );

      for (const date of week) {
        const dayRuns = runsOn(project.runs, [date]);
        const dayRow = daily.find(
          (r) =>
            value(r, "Project ID") === project.id &&
            (value(r, "Date") as Date).toISOString().startsWith(date),
        );
        expect(dayRow, `${project.id} ${date}`).toBeDefined();
        expect(dayRow && value(dayRow, "Runs")).toBe(dayRuns.length);
        expect(dayRow && value(dayRow, "Tests failed")).toBe(
          dayRuns.reduce((s, r) => s + r.tests.failed, 0),
        );
        if (dayRuns.length === 0) expect(dayRow && value(dayRow, "Run pass rate")).toBeNull();
      }
      checked += runs.length;
    }
    // The emulator must have produced runs in the week, or the comparison above proves little.
    expect(checked).toBeGreaterThan(0);
    expect(daily).toHaveLength(emulator.projects.length * week.length);
  });
});
