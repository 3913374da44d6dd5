import type { PeriodPair } from "../../src/periods/types.js";
import type {
  AmountFigure,
  AvailableProject,
  DailyPoint,
  Deltas,
  Figures,
  RateFigure,
  Report,
  UnavailableProject,
} from "../../src/report/types.js";

/**
 * Hand-built reports for the renderers: figures from counts, deltas from two figures, and a
 * realistic team (several projects, one unavailable, noise and significant changes, a new
 * project, a prior beyond the lookback, firing alerts, top movers).
 */

export interface Counts {
  runsPassed: number;
  runsFailed: number;
  /** Left out: 10 minutes; null: no duration reported. */
  meanRunDurationMs?: number | null;
  testsPassed: number;
  testsFailed: number;
  testsSkipped?: number;
  testsFlaky: number;
  testsTimedOut?: number;
}

/** Figures from counts (zero where left out), rates computed the product's way (null on no data). */
export function figures(c: Partial<Counts> = {}): Figures {
  const runsPassed = c.runsPassed ?? 0;
  const runsFailed = c.runsFailed ?? 0;
  const testsPassed = c.testsPassed ?? 0;
  const testsFailed = c.testsFailed ?? 0;
  const testsFlaky = c.testsFlaky ?? 0;
  const runs = runsPassed + runsFailed;
  const skipped = c.testsSkipped ?? 0;
  const timedOut = c.testsTimedOut ?? 0;
  const tests = testsPassed + testsFailed + skipped + timedOut;
  return {
    runs,
    runsPassed,
    runsFailed,
    runPassRate: runs > 0 ? runsPassed / runs : null,
    meanRunDurationMs:
      runs > 0 ? (c.meanRunDurationMs === undefined ? 600_000 : c.meanRunDurationMs) : null,
    tests,
    testsPassed,
    testsFailed,
    testsSkipped: skipped,
    testsFlaky,
    testsTimedOut: timedOut,
    testPassRate: tests > 0 ? testsPassed / tests : null,
    flakyRate: tests > 0 ? testsFlaky / tests : null,
  };
}

export const EMPTY_FIGURES = figures({
  runsPassed: 0,
  runsFailed: 0,
  testsPassed: 0,
  testsFailed: 0,
  testsFlaky: 0,
});

const RATES: RateFigure[] = ["runPassRate", "testPassRate", "flakyRate"];
const AMOUNTS: AmountFigure[] = [
  "runs",
  "meanRunDurationMs",
  "tests",
  "testsFailed",
  "testsTimedOut",
  "testsFlaky",
];

/** Deltas between two spans; every rate change is significant unless listed in `noise`. */
export function deltasBetween(current: Figures, prior: Figures, noise: RateFigure[] = []): Deltas {
  const deltas = {} as Record<string, Deltas[keyof Deltas]>;
  for (const figure of RATES) {
    const now = current[figure];
    const before = prior[figure];
    deltas[figure] =
      now === null
        ? { kind: "none" }
        : before === null
          ? { kind: "new" }
          : {
              kind: "change",
              pp: (now - before) * 100,
              significant: !noise.includes(figure),
              pValue: noise.includes(figure) ? 0.4 : 0.001,
              large: Math.abs(now - before) * 100 >= 0.5,
            };
  }
  for (const figure of AMOUNTS) {
    const now = current.runs > 0 || current.tests > 0 ? current[figure] : null;
    const before = prior.runs > 0 || prior.tests > 0 ? prior[figure] : null;
    deltas[figure] =
      now === null
        ? { kind: "none" }
        : before === null
          ? { kind: "new" }
          : {
              kind: "change",
              diff: now - before,
              pct: before !== 0 ? (now - before) / before : null,
              significant: true,
              large: before !== 0 ? Math.abs(now - before) / before >= 0.1 : now !== before,
            };
  }
  return deltas as Deltas;
}

/** Every delta unavailable, as when the prior period is beyond the API's lookback. */
export function unavailableDeltas(reason: string): Deltas {
  const deltas = {} as Record<string, Deltas[keyof Deltas]>;
  for (const figure of [...RATES, ...AMOUNTS]) deltas[figure] = { kind: "unavailable", reason };
  return deltas as Deltas;
}

export const WEEK: PeriodPair = {
  kind: "last_7_days",
  compareTo: "previous_period",
  current: { start: "2026-11-09", end: "2026-11-15" },
  prior: { start: "2026-11-02", end: "2026-11-08" },
};

export const DAY_VS_LAST_WEEK: PeriodPair = {
  kind: "previous_day",
  compareTo: "same_period_last_week",
  current: { start: "2026-11-15", end: "2026-11-15" },
  prior: { start: "2026-11-08", end: "2026-11-08" },
};

/** Days of `period` whose flaky rates are `flaky` (null: a day without data), 1,000 results each. */
export function dailySeries(start: string, flaky: readonly (number | null)[]): DailyPoint[] {
  const first = Date.parse(`${start}T00:00:00Z`);
  return flaky.map((rate, i) => ({
    date: new Date(first + i * 86_400_000).toISOString().slice(0, 10),
    figures:
      rate === null
        ? EMPTY_FIGURES
        : figures({
            runsPassed: 9,
            runsFailed: 1,
            testsPassed: 950,
            testsFailed: 50,
            testsFlaky: Math.round(rate * 1000),
          }),
  }));
}

export interface ProjectSpec {
  id: string;
  name?: string;
  current: Counts;
  /** null: the prior had no data (every delta `new`); "lookback": beyond the API's lookback. */
  prior: Counts | null | "lookback";
  noise?: RateFigure[];
  branch?: string | null;
  tags?: string[];
  flakyByDay?: (number | null)[];
  /** Runs before and none now: the report marks it. */
  silent?: boolean;
}

export const LOOKBACK_NOTE = "prior period not available: insights go back to 2026-08-25";

/** An available project from counts. */
export function project(spec: ProjectSpec, periods: PeriodPair = WEEK): AvailableProject {
  const current = figures(spec.current);
  const prior =
    spec.prior === null ? EMPTY_FIGURES : spec.prior === "lookback" ? null : figures(spec.prior);
  return {
    status: "ok",
    missingDays: { current: [], prior: [] },
    silent: spec.silent ?? false,
    projectId: spec.id,
    name: spec.name ?? spec.id,
    filters: { branch: spec.branch ?? null, author: null, tags: spec.tags ?? [] },
    current,
    prior: spec.prior === null ? EMPTY_FIGURES : prior,
    priorNote: spec.prior === "lookback" ? LOOKBACK_NOTE : null,
    deltas:
      prior === null ? unavailableDeltas(LOOKBACK_NOTE) : deltasBetween(current, prior, spec.noise),
    daily: dailySeries(periods.current.start, spec.flakyByDay ?? [current.flakyRate]),
  };
}

export function unavailable(id: string, name: string, message: string): UnavailableProject {
  return {
    status: "unavailable",
    projectId: id,
    name,
    filters: { branch: null, author: null, tags: [] },
    reason: { code: "UPSTREAM", message },
  };
}

/** The realistic team: five available projects, one unavailable, movers, alerts, a dashboard. */
export function checkoutReport(overrides: Partial<Report> = {}): Report {
  const periods = overrides.periods ?? WEEK;
  const days = periods.current.start === periods.current.end ? 1 : 7;
  const series = (values: (number | null)[]) => values.slice(0, days);
  const projects = [
    project(
      {
        id: "pdqmxlz",
        name: "Web E2E",
        branch: "main",
        tags: ["smoke", "e2e"],
        current: {
          runsPassed: 182,
          runsFailed: 18,
          meanRunDurationMs: 724_000,
          testsPassed: 9_400,
          testsFailed: 500,
          testsFlaky: 450,
          testsTimedOut: 100,
        },
        prior: {
          runsPassed: 190,
          runsFailed: 12,
          meanRunDurationMs: 700_000,
          testsPassed: 9_700,
          testsFailed: 280,
          testsFlaky: 120,
          testsTimedOut: 20,
        },
        flakyByDay: series([0.02, 0.03, 0.05, 0.06, 0.04, 0.05, 0.06]),
      },
      periods,
    ),
    project(
      {
        id: "k2j9x",
        name: "API contract",
        current: {
          runsPassed: 394,
          runsFailed: 6,
          meanRunDurationMs: 95_000,
          testsPassed: 19_900,
          testsFailed: 100,
          testsFlaky: 160,
        },
        prior: {
          runsPassed: 380,
          runsFailed: 14,
          meanRunDurationMs: 99_000,
          testsPassed: 19_800,
          testsFailed: 200,
          testsFlaky: 180,
        },
        noise: ["flakyRate"],
        flakyByDay: series([0.008, 0.009, 0.007, null, null, 0.008, 0.009]),
      },
      periods,
    ),
    project(
      {
        id: "m0b1le",
        name: "Mobile iOS",
        current: {
          runsPassed: 40,
          runsFailed: 10,
          testsPassed: 1_900,
          testsFailed: 100,
          testsFlaky: 30,
        },
        prior: null,
      },
      periods,
    ),
    project(
      {
        id: "pay-01",
        name: "Payments",
        current: {
          runsPassed: 70,
          runsFailed: 2,
          testsPassed: 3_560,
          testsFailed: 40,
          testsFlaky: 72,
        },
        prior: "lookback",
      },
      periods,
    ),
    project(
      {
        id: "evil&id",
        name: "*bold*<@U123>",
        branch: "<!channel>",
        current: { runsPassed: 10, runsFailed: 0, testsPassed: 500, testsFailed: 0, testsFlaky: 5 },
        prior: { runsPassed: 10, runsFailed: 0, testsPassed: 500, testsFailed: 0, testsFlaky: 4 },
        noise: ["flakyRate", "runPassRate", "testPassRate"],
      },
      periods,
    ),
    unavailable(
      "old-proj",
      "Legacy <suite>",
      "the insights API answered 503 after 3 attempts — try again later",
    ),
  ];
  const sum = (c: Counts[]): Counts => ({
    runsPassed: c.reduce((s, x) => s + x.runsPassed, 0),
    runsFailed: c.reduce((s, x) => s + x.runsFailed, 0),
    testsPassed: c.reduce((s, x) => s + x.testsPassed, 0),
    testsFailed: c.reduce((s, x) => s + x.testsFailed, 0),
    testsFlaky: c.reduce((s, x) => s + x.testsFlaky, 0),
    testsTimedOut: c.reduce((s, x) => s + (x.testsTimedOut ?? 0), 0),
    meanRunDurationMs: 412_000,
  });
  const current = figures(
    sum(projects.flatMap((p) => (p.status === "ok" ? [countsOf(p.current)] : []))),
  );
  const prior = figures({
    ...countsOf(current),
    runsPassed: current.runsPassed - 30,
    testsFlaky: current.testsFlaky - 380,
    meanRunDurationMs: 430_000,
  });
  return {
    team: { name: "checkout", title: "Checkout squad", timezone: "Europe/Berlin" },
    digest: "weekly",
    missingDaysNote: null,
    periods,
    generatedAt: "2026-11-16T08:00:00.000Z",
    projects,
    total: {
      current,
      prior,
      priorNote: null,
      deltas: deltasBetween(current, prior, ["testPassRate"]),
      daily: dailySeries(
        periods.current.start,
        series([0.012, 0.015, 0.02, 0.022, 0.018, 0.019, 0.021]),
      ),
      excluded: ["Legacy <suite>"],
      silent: [],
    },
    alerts: [
      {
        alert: "flaky-rate",
        severity: "warn",
        value: 0.045,
        threshold: 0.03,
        projectId: "pdqmxlz",
      },
      { alert: "flaky-rate", severity: "critical", value: 0.021, threshold: 0.02, projectId: null },
    ],
    dashboardUrl: "https://insights.example.com/projects/{project_id}?range=7d&team=checkout",
    ...overrides,
  };
}

function countsOf(f: Figures): Counts {
  return {
    runsPassed: f.runsPassed,
    runsFailed: f.runsFailed,
    testsPassed: f.testsPassed,
    testsFailed: f.testsFailed,
    testsSkipped: f.testsSkipped,
    testsFlaky: f.testsFlaky,
    testsTimedOut: f.testsTimedOut,
    meanRunDurationMs: f.meanRunDurationMs ?? undefined,
  };
}

/** A team of `n` projects with assorted flaky rates, every seventh one unavailable. */
export function manyProjectsReport(n: number): Report {
  const base = checkoutReport();
  const projects = Array.from({ length: n }, (_, i) => {
    const id = `proj-${String(i + 1).padStart(3, "0")}`;
    const name = `Project ${String(i + 1).padStart(3, "0")} with a rather long descriptive name`;
    if (i % 7 === 6) return unavailable(id, name, "the insights API answered 503 after 3 attempts");
    const flaky = 5 + ((i * 37) % 60);
    return project({
      id,
      name,
      branch: "release/2026.11",
      tags: ["nightly", "e2e"],
      current: {
        runsPassed: 90 + (i % 10),
        runsFailed: 10,
        testsPassed: 4_800,
        testsFailed: 200,
        testsFlaky: flaky,
        testsTimedOut: 3,
      },
      prior: {
        runsPassed: 95,
        runsFailed: 5,
        testsPassed: 4_900,
        testsFailed: 100,
        testsFlaky: 30,
        testsTimedOut: 1,
      },
      noise: i % 2 === 0 ? ["flakyRate"] : [],
      flakyByDay: [0.01, 0.02, null, 0.03, 0.01, 0.02, flaky / 5000],
    });
  });
  const excluded = projects.filter((p) => p.status === "unavailable").map((p) => p.name);
  return { ...base, projects, total: { ...base.total, excluded } };
}

/** The report with its team total's changes all chance (≈), rates and counts: no team news. */
export function quietTotal(report: Report): Report {
  const { current, prior } = report.total;
  if (prior === null) return report;
  const deltas = deltasBetween(current, prior, ["runPassRate", "testPassRate", "flakyRate"]);
  for (const figure of AMOUNTS) {
    const delta = deltas[figure];
    if (delta.kind === "change") deltas[figure] = { ...delta, significant: false };
  }
  return { ...report, total: { ...report.total, deltas } };
}
