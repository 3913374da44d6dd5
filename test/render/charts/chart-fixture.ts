import { datesIn } from "../../../src/periods/calendar-date.js";
import type { Period } from "../../../src/periods/types.js";
import type { SubjectChartInput, TrendChartInput } from "../../../src/render/charts/trend-chart.js";
import type { DailyPoint, FiringAlert } from "../../../src/report/types.js";
import { EMPTY_FIGURES, figures } from "../report-fixture.js";

// Eight weeks of a team's days, the same on every run: weekends without runs, a quiet flaky
// rate around 2%, and a spike on a small day (40 results) in the current week.

export const CHART_WINDOW: Period = { start: "2026-09-21", end: "2026-11-15" };
export const CHART_PERIODS = {
  current: { start: "2026-11-09", end: "2026-11-15" },
  prior: { start: "2026-11-02", end: "2026-11-08" },
};
/**
 * A flaky-rate warning firing on each of the projects: the digest's news names them, so their
 * charts follow the team's.
 */
export function flakyWarningsOn(projectIds: readonly string[]): FiringAlert[] {
  return projectIds.map((projectId) => ({
    alert: "flaky-rate",
    severity: "warn",
    value: 0.05,
    threshold: 0.03,
    projectId,
    metricName: "flaky rate",
  }));
}

/** The small day with the spike: a Thursday of the current week. */
export const SPIKE_DATE = "2026-11-12";

export interface DayOverride {
  /** null: no runs that day. */
  flaky: number | null;
  tests?: number;
}

/** The window's days; `overrides` replace single days. */
export function chartDays(overrides: Readonly<Record<string, DayOverride>> = {}): DailyPoint[] {
  return datesIn(CHART_WINDOW).map((date, i) => {
    const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
    const override = overrides[date];
    const spike = date === SPIKE_DATE ? { flaky: 6, tests: 40 } : undefined;
    const weekend = weekday === 0 || weekday === 6 ? { flaky: null } : undefined;
    const day = override ??
      spike ??
      weekend ?? {
        flaky: Math.round((2000 + 10 * i) * (0.02 + 0.008 * Math.sin(i / 4))),
        tests: 2000 + 10 * i,
      };
    if (day.flaky === null) return { date, figures: EMPTY_FIGURES };
    const tests = day.tests ?? 2000;
    const runs = Math.max(3, Math.round(tests / 50));
    const runsFailed = Math.round(runs * (0.08 + 0.06 * Math.cos(i / 3)));
    return {
      date,
      figures: figures({
        runsPassed: runs - runsFailed,
        runsFailed,
        testsPassed: tests - 12,
        testsFailed: 12,
        testsFlaky: day.flaky,
      }),
    };
  });
}

/** A team chart of `metric` over the fixture's window, with the alert thresholds a team might have. */
export function chartInput(
  metric: TrendChartInput["metric"],
  overrides: Partial<TrendChartInput> = {},
): TrendChartInput {
  return {
    metric,
    subject: "Checkout (team)",
    window: CHART_WINDOW,
    days: chartDays(),
    periods: CHART_PERIODS,
    thresholds:
      metric === "flakyRate"
        ? [
            { level: "warn", value: 0.05 },
            { level: "critical", value: 0.1 },
          ]
        : [{ level: "warn", value: 0.8 }],
    ...overrides,
  };
}

/** A digest's chart of the team's both rates, this week and the prior one named. */
export function subjectChartInput(overrides: Partial<SubjectChartInput> = {}): SubjectChartInput {
  const { metric: _metric, thresholds: flaky, ...rest } = chartInput("flakyRate");
  return {
    ...rest,
    subject: "Apps (Sydney) · all projects",
    periodNames: { current: "this week", prior: "prior week" },
    thresholds: { flakyRate: flaky, runPassRate: chartInput("runPassRate").thresholds },
    ...overrides,
  };
}

/** One golden image per trend chart kind (an alert fire's), under test/render/charts/golden/. */
export const GOLDEN_CHARTS = {
  "flaky-rate": chartInput("flakyRate"),
  "run-pass-rate": chartInput("runPassRate"),
} as const;

/** The golden image of a digest's subject chart (both rates), golden/subject.png. */
export const GOLDEN_SUBJECT_CHART = subjectChartInput();
