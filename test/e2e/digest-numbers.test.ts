import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load-config.js";
import type { ResolvedConfig } from "../../src/config/types.js";
import { createApiClient } from "../../src/create-deps.js";
import { createRequestCache } from "../../src/insights/collect-insights.js";
import { type RunningEmulator, startEmulator } from "../../src/insights/emulator/start-emulator.js";
import { silentLogger } from "../../src/logger.js";
import { buildDigestReport } from "../../src/pipeline/digest/report-stage.js";
import type { AvailableProject, Figures, Report } from "../../src/report/types.js";
import { API_KEY, apiEnv, apiSection, IDS, TODAY, tempDir, writeConfig } from "./e2e-setup.js";
import {
  countRuns,
  datesOf,
  flakyRate,
  meanDurationMs,
  percent,
  pool,
  type RawFigures,
  type RawFilters,
  runPassRate,
  runsIn,
  testPassRate,
} from "./raw-figures.js";

/**
 * Numbers people trust: a digest built through the whole read path (config file → API client
 * over HTTP → emulator → report) shows the figures recomputed here from the emulator's raw
 * runs, bucketed in the team's zone with the config's filters applied by the test itself.
 */

let emulator: RunningEmulator;
let dirs: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  emulator = await startEmulator({ today: TODAY, key: API_KEY });
  dirs = await tempDir();
});

afterAll(async () => {
  await emulator.close();
  await dirs.remove();
});

async function load(doc: unknown, name: string): Promise<ResolvedConfig> {
  const path = await writeConfig(dirs.dir, doc, name);
  return loadConfig(path, { env: apiEnv(emulator.url), requireCredentials: false });
}

function rawRuns(id: string) {
  const project = emulator.projects.find((p) => p.id === id);
  if (!project) throw new Error(`no emulator project ${id}`);
  return project.runs;
}

/** Each figure of the report equals the raw recomputation (durations within the API's 1 ms rounding). */
function expectFigures(actual: Figures | null, raw: RawFigures) {
  expect(actual).not.toBeNull();
  const f = actual as Figures;
  expect({
    runs: f.runs,
    runsPassed: f.runsPassed,
    runsFailed: f.runsFailed,
    tests: f.tests,
    testsPassed: f.testsPassed,
    testsFailed: f.testsFailed,
    testsSkipped: f.testsSkipped,
    testsFlaky: f.testsFlaky,
    testsTimedOut: f.testsTimedOut,
  }).toEqual({
    runs: raw.runs,
    runsPassed: raw.runsPassed,
    runsFailed: raw.runsFailed,
    tests: raw.tests,
    testsPassed: raw.testsPassed,
    testsFailed: raw.testsFailed,
    testsSkipped: raw.testsSkipped,
    testsFlaky: raw.testsFlaky,
    testsTimedOut: raw.testsTimedOut,
  });
  expect(f.runPassRate).toBeCloseTo(runPassRate(raw) ?? Number.NaN, 12);
  expect(f.flakyRate).toBeCloseTo(flakyRate(raw) ?? Number.NaN, 12);
  expect(f.testPassRate).toBeCloseTo(testPassRate(raw) ?? Number.NaN, 12);
  expect(Math.abs((f.meanRunDurationMs ?? 0) - (meanDurationMs(raw) ?? 0))).toBeLessThanOrEqual(
    0.5,
  );
}

describe("a team digest against the emulator", () => {
  // New York, where 2026-11-01 (in the prior week) is the 25-hour day DST ends on.
  const zone = "America/New_York";
  const members: { id: string; filters: RawFilters; yaml: Record<string, unknown> }[] = [
    { id: IDS.webE2e, filters: { branch: "main" }, yaml: { branch: "main" } },
    { id: IDS.checkoutApi, filters: { tags: ["smoke"] }, yaml: { tags: ["smoke"] } },
    {
      id: IDS.billing,
      filters: { branch: "main", tags: ["e2e", "regression"] },
      yaml: { branch: "main", tags: ["e2e", "regression"] },
    },
  ];
  const current = { start: "2026-11-08", end: "2026-11-14" };
  const prior = { start: "2026-11-01", end: "2026-11-07" };
  let report: Report;
  let key: string;

  beforeAll(async () => {
    const config = await load(
      {
        api: apiSection(),
        teams: [
          {
            name: "mobile",
            title: "Mobile apps",
            timezone: zone,
            week_starts_on: "sunday",
            projects: members.map((m) => ({ id: m.id, ...m.yaml })),
            digests: [
              {
                name: "weekly",
                schedule: "30 8 * * 1",
                period: "previous_week",
                slack: { channel: "C0123ABCD" },
              },
            ],
          },
        ],
      },
      "numbers.yaml",
    );
    const [team] = config.teams;
    if (!team?.digests[0]) throw new Error("config lost its team");
    const api = createApiClient(config);
    try {
      ({ report, key } = await buildDigestReport(
        // Monday 08:30 in New York.
        { team, digest: team.digests[0], fireAt: new Date("2026-11-16T13:30:00Z") },
        { api, cache: createRequestCache(), logger: silentLogger() },
      ));
    } finally {
      await api.close();
    }
  });

  it("covers the last full week by the team's week start, compared with the week before", () => {
    expect(key).toBe("mobile.weekly.2026-11-08_2026-11-14");
    expect(report.periods.current).toEqual(current);
    expect(report.periods.prior).toEqual(prior);
  });

  it("shows each project's figures as recomputed from its raw runs in the team's zone", () => {
    expect(report.projects.map((p) => p.projectId)).toEqual(members.map((m) => m.id));
    for (const member of members) {
      const project = report.projects.find((p) => p.projectId === member.id) as AvailableProject;
      expect(project.status).toBe("ok");
      const now = countRuns(runsIn(rawRuns(member.id), current, zone, member.filters));
      const before = countRuns(runsIn(rawRuns(member.id), prior, zone, member.filters));
      expect(now.runs).toBeGreaterThan(0);
      expectFigures(project.current, now);
      expectFigures(project.prior, before);
      const flakyPp = ((flakyRate(now) ?? 0) - (flakyRate(before) ?? 0)) * 100;
      expect(project.deltas.flakyRate).toMatchObject({ kind: "change" });
      expect(project.deltas.flakyRate.kind === "change" && project.deltas.flakyRate.pp).toBeCloseTo(
        flakyPp,
        9,
      );
    }
  });

  it("takes names from the list-projects operation when the config gives none", () => {
    expect(report.projects.map((p) => p.name)).toEqual([
      "Web E2E",
      "Checkout API",
      "Billing & Invoices",
    ]);
  });

  it("has every local day in each project's daily series, with that day's raw runs", () => {
    for (const member of members) {
      const project = report.projects.find((p) => p.projectId === member.id) as AvailableProject;
      expect(project.daily.map((d) => d.date)).toEqual(datesOf(current));
      for (const point of project.daily) {
        const day = countRuns(
          runsIn(rawRuns(member.id), { start: point.date, end: point.date }, zone, member.filters),
        );
        expect([point.date, point.figures.runs, point.figures.testsFlaky]).toEqual([
          point.date,
          day.runs,
          day.testsFlaky,
        ]);
        // A day without runs has no rate: no data is not 0%.
        if (day.runs === 0) expect(point.figures.runPassRate).toBeNull();
      }
    }
  });

  it("pools the team total from counts, where a mean of the projects' rates would be wrong", () => {
    const perProject = members.map((m) =>
      countRuns(runsIn(rawRuns(m.id), current, zone, m.filters)),
    );
    const pooled = pool(perProject);
    expectFigures(report.total.current, pooled);
    expectFigures(
      report.total.prior,
      pool(members.map((m) => countRuns(runsIn(rawRuns(m.id), prior, zone, m.filters)))),
    );

    // The trap the rule avoids: averaging percentages gives a visibly different figure.
    const mean = (xs: (number | null)[]) =>
      xs.reduce<number>((s, x) => s + (x ?? 0), 0) / xs.length;
    const meanOfFlaky = mean(perProject.map(flakyRate));
    const meanOfPass = mean(perProject.map(runPassRate));
    expect(percent(meanOfFlaky)).not.toBe(percent(flakyRate(pooled)));
    expect(percent(meanOfPass)).not.toBe(percent(runPassRate(pooled)));
    expect(percent(report.total.current.flakyRate)).toBe(percent(flakyRate(pooled)));
    expect(percent(report.total.current.runPassRate)).toBe(percent(runPassRate(pooled)));
    expect(report.total.excluded).toEqual([]);
  });

  it("sums the team's daily series day by day", () => {
    for (const point of report.total.daily) {
      const day = pool(
        members.map((m) =>
          countRuns(runsIn(rawRuns(m.id), { start: point.date, end: point.date }, zone, m.filters)),
        ),
      );
      expect([point.date, point.figures.runs, point.figures.tests]).toEqual([
        point.date,
        day.runs,
        day.tests,
      ]);
    }
  });
});
