import type {
  FetchOutcome,
  InsightsDay,
  ProjectInsights,
  RunCounts,
  TestCounts,
} from "../../src/insights/types.js";
import { datesIn } from "../../src/periods/calendar-date.js";
import type { Period, PeriodPair } from "../../src/periods/types.js";
import type { ReportProjectInput } from "../../src/report/build-report.js";

/** Small builders for report tests: counts, day buckets, whole ProjectInsights, fetch outcomes. */

export function runs(
  passed: number,
  failed: number,
  meanDurationMs: number | null = 60_000,
): RunCounts {
  return { passed, failed, meanDurationMs: passed + failed > 0 ? meanDurationMs : null };
}

export function tests(partial: Partial<TestCounts> = {}): TestCounts {
  return { passed: 0, failed: 0, skipped: 0, flaky: 0, timedOut: 0, ...partial };
}

export const NO_TESTS = tests();

export interface DayData {
  runs?: RunCounts;
  tests?: TestCounts;
}

/**
 * A ProjectInsights over `period` with data on the given days (every other day empty), and
 * `overall` summed from the days unless given, as the API would send it.
 */
export function insights(
  period: Period,
  data: Record<string, DayData> = {},
  options: { projectId?: string; overall?: ProjectInsights["overall"] } = {},
): ProjectInsights {
  const days: InsightsDay[] = datesIn(period).map((date) => ({
    date,
    runs: data[date]?.runs ?? null,
    tests: data[date]?.tests ?? null,
  }));
  return {
    projectId: options.projectId ?? "p1",
    startDate: period.start,
    endDate: period.end,
    timezone: "Europe/Berlin",
    days,
    overall: options.overall ?? sumDays(days),
  };
}

/** Insights whose whole period holds these totals, spread on the first day. */
export function totals(period: Period, runCounts: RunCounts, testCounts: TestCounts = NO_TESTS) {
  return insights(period, { [period.start]: { runs: runCounts, tests: testCounts } });
}

function sumDays(days: readonly InsightsDay[]): ProjectInsights["overall"] {
  let passed = 0;
  let failed = 0;
  let durationSum = 0;
  const t = tests();
  for (const day of days) {
    if (day.runs) {
      passed += day.runs.passed;
      failed += day.runs.failed;
      durationSum += (day.runs.meanDurationMs ?? 0) * (day.runs.passed + day.runs.failed);
    }
    if (day.tests) {
      t.passed += day.tests.passed;
      t.failed += day.tests.failed;
      t.skipped += day.tests.skipped;
      t.flaky += day.tests.flaky;
      t.timedOut += day.tests.timedOut;
    }
  }
  const count = passed + failed;
  return {
    runs: { passed, failed, meanDurationMs: count > 0 ? durationSum / count : null },
    tests: t,
  };
}

export function ok(value: ProjectInsights): FetchOutcome {
  return { ok: true, insights: value };
}

export function failed(
  code: Extract<FetchOutcome, { ok: false }>["error"]["code"],
  message: string,
  earliestDate?: string,
): FetchOutcome {
  return {
    ok: false,
    error: earliestDate === undefined ? { code, message } : { code, message, earliestDate },
  };
}

export const WEEK: PeriodPair = {
  kind: "previous_week",
  compareTo: "previous_period",
  current: { start: "2026-11-09", end: "2026-11-15" },
  prior: { start: "2026-11-02", end: "2026-11-08" },
};

/** A configured project's input to buildReport; current and prior default to empty insights. */
export function project(
  id: string,
  outcomes: { current?: FetchOutcome; prior?: FetchOutcome; name?: string } = {},
): ReportProjectInput {
  return {
    projectId: id,
    name: outcomes.name ?? id.toUpperCase(),
    filters: { branch: null, author: null, tags: [] },
    current: outcomes.current ?? ok(insights(WEEK.current, {}, { projectId: id })),
    prior: outcomes.prior ?? ok(insights(WEEK.prior, {}, { projectId: id })),
  };
}

/** Every number in a value, with its path, for "no NaN, no Infinity" checks. */
export function numbersIn(value: unknown, path = "$"): Array<[string, number]> {
  if (typeof value === "number") return [[path, value]];
  if (Array.isArray(value)) return value.flatMap((v, i) => numbersIn(v, `${path}[${i}]`));
  if (value !== null && typeof value === "object") {
    return Object.entries(value).flatMap(([k, v]) => numbersIn(v, `${path}.${k}`));
  }
  return [];
}
