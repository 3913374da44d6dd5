import { DateTime } from "luxon";
import { formatApiDate } from "../api-date.js";
import type { EmulatorRun } from "./emulator-types.js";
import type { InsightsRange } from "./resolve-insights-range.js";

/** The run filters of an insights request; `tags` must all be carried by a run. */
export interface RunFilters {
  branch: string | null;
  author: string | null;
  tags: readonly string[];
}

interface DayTotals {
  passedRuns: number;
  failedRuns: number;
  durationMs: number;
  passed: number;
  failed: number;
  skipped: number;
  flaky: number;
  timedOut: number;
}

/** The UTC instant (ISO string, as `Date#toISOString`) at which a local date begins in a zone. */
export type DayStart = (isoDate: string, zone: string) => string;

/** Each day's own local midnight (or its first instant, when DST skips midnight). */
export function localMidnight(isoDate: string, zone: string): string {
  return new Date(DateTime.fromISO(isoDate, { zone }).startOf("day").toMillis()).toISOString();
}

/** The runs started in [from, to) (ISO instants), sorted by `startedAt`; a few more do no harm. */
export type RunsBetween = (from: string, to: string) => readonly EmulatorRun[];

/**
 * The insights response body (wire format) for runs over a range, bucketed by day in the
 * range's zone. Rates are percentages rounded to 2 decimals, mean durations whole
 * milliseconds; a day without runs carries only `date`. `dayStart` is a parameter because the
 * zone arithmetic dominates the cost: callers memoise it.
 */
export function aggregateInsights(
  runsBetween: RunsBetween,
  range: InsightsRange,
  filters: RunFilters,
  dayStart: DayStart = localMidnight,
): Record<string, unknown> {
  const dates: string[] = [];
  for (let d = range.startDate; d <= range.endDate; d = nextDate(d)) dates.push(d);
  // Each day's bound is computed from its own date (never by chaining `plus`, which would
  // carry a DST-shifted start into the following days). Runs' `startedAt` are UTC ISO strings
  // of one fixed format, so string order is time order.
  const bounds = [...dates, nextDate(range.endDate)].map((d) => dayStart(d, range.timezone));
  const runs = runsBetween(bounds[0] ?? "", bounds.at(-1) ?? "");
  const days = dates.map(emptyTotals);
  let day = 0;
  for (let i = firstAtOrAfter(runs, bounds[0] ?? ""); i < runs.length; i++) {
    const run = runs[i] as EmulatorRun;
    while (day < days.length && run.startedAt >= (bounds[day + 1] ?? "")) day++;
    if (day >= days.length) break;
    const totals = days[day];
    if (totals && matches(run, filters)) add(totals, run);
  }
  const overall = days.reduce(sum, emptyTotals());
  return {
    start_date: range.startDate,
    end_date: range.endDate,
    timezone: range.timezone,
    runs: {
      runs_volume_data: days.map((t, i) => ({
        date: formatApiDate(dates[i] ?? ""),
        ...runFigures(t),
      })),
      overall_data: overallRunFigures(overall),
    },
    tests: {
      tests_volume_data: days.map((t, i) => ({
        date: formatApiDate(dates[i] ?? ""),
        ...testFigures(t),
      })),
      overall_data: overallTestFigures(overall),
    },
  };
}

function nextDate(isoDate: string): string {
  return new Date(Date.parse(`${isoDate}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

function matches(run: EmulatorRun, filters: RunFilters): boolean {
  if (filters.branch !== null && run.branch !== filters.branch) return false;
  if (filters.author !== null && run.author !== filters.author) return false;
  return filters.tags.every((tag) => run.tags.includes(tag));
}

/** Index of the first run started at or after `instant` (runs sorted by `startedAt`). */
function firstAtOrAfter(runs: readonly EmulatorRun[], instant: string): number {
  let low = 0;
  let high = runs.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((runs[mid]?.startedAt ?? "") < instant) low = mid + 1;
    else high = mid;
  }
  return low;
}

function emptyTotals(): DayTotals {
  return {
    passedRuns: 0,
    failedRuns: 0,
    durationMs: 0,
    passed: 0,
    failed: 0,
    skipped: 0,
    flaky: 0,
    timedOut: 0,
  };
}

function add(totals: DayTotals, run: EmulatorRun): void {
  if (run.status === "passed") totals.passedRuns++;
  else totals.failedRuns++;
  totals.durationMs += run.durationMs;
  totals.passed += run.tests.passed;
  totals.failed += run.tests.failed;
  totals.skipped += run.tests.skipped;
  totals.flaky += run.tests.flaky;
  totals.timedOut += run.tests.timedOut;
}

function sum(a: DayTotals, b: DayTotals): DayTotals {
  return {
    passedRuns: a.passedRuns + b.passedRuns,
    failedRuns: a.failedRuns + b.failedRuns,
    durationMs: a.durationMs + b.durationMs,
    passed: a.passed + b.passed,
    failed: a.failed + b.failed,
    skipped: a.skipped + b.skipped,
    flaky: a.flaky + b.flaky,
    timedOut: a.timedOut + b.timedOut,
  };
}

function percent(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 100;
}

function overallRunFigures(t: DayTotals) {
  const runs = t.passedRuns + t.failedRuns;
  return {
    passed_runs_count: t.passedRuns,
    failed_runs_count: t.failedRuns,
    average_passing_rate: percent(t.passedRuns, runs),
    average_run_duration: runs === 0 ? 0 : Math.round(t.durationMs / runs),
  };
}

function runFigures(t: DayTotals) {
  return t.passedRuns + t.failedRuns === 0 ? {} : overallRunFigures(t);
}

function overallTestFigures(t: DayTotals) {
  const results = t.passed + t.failed + t.skipped + t.timedOut;
  return {
    passed_tests_count: t.passed,
    failed_tests_count: t.failed,
    skipped_tests_count: t.skipped,
    flaky_tests_count: t.flaky,
    timed_out_tests_count: t.timedOut,
    average_passing_rate: percent(t.passed, results),
    average_flakiness_rate: percent(t.flaky, results),
  };
}

function testFigures(t: DayTotals) {
  const results = t.passed + t.failed + t.skipped + t.timedOut;
  if (results === 0) return {};
  return {
    passed_tests_count: t.passed,
    failed_tests_count: t.failed,
    skipped_tests_count: t.skipped,
    flaky_tests_count: t.flaky,
    timed_out_tests_count: t.timedOut,
    pass_percentage: percent(t.passed, results),
    fail_percentage: percent(t.failed, results),
    skip_percentage: percent(t.skipped, results),
    flaky_percentage: percent(t.flaky, results),
    timed_out_percentage: percent(t.timedOut, results),
    average_passing_rate: percent(t.passed, results),
    average_flakiness_rate: percent(t.flaky, results),
  };
}
