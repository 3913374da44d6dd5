import * as z from "zod";
import { datesIn, daysBetween, isIsoDate } from "../periods/calendar-date.js";
import { formatApiDate, parseApiDate } from "./api-date.js";
import { fail, type Parsed, problemOf } from "./shape-problem.js";
import type { InsightsDay, ProjectInsights, RunCounts, TestCounts } from "./types.js";
import { isWellFormedInsights } from "./well-formed-insights.js";
import {
  flakyWithinPassed,
  RUN_COUNT_KEYS,
  RUN_FIGURES,
  requireAllOrNone,
  TEST_COUNT_KEYS,
  TEST_FIGURES,
} from "./wire-figures.js";

// The wire format of the insights operation, checked where it enters and mapped at once to the
// camelCase types of `types.ts`. Objects are loose: unknown extra fields are ignored, since
// the API may grow. Percentages are checked (wire-figures.ts) but not read; figures are
// computed from counts.

const apiDate = z.string().refine((text) => parseApiDate(text) !== null, {
  message: 'expected a date like "Nov  2, 2026"',
});
const isoDate = z.string().refine(isIsoDate, { message: "expected an ISO date like 2026-11-02" });

const runsDay = z
  .object({ date: apiDate, ...RUN_FIGURES })
  .superRefine(requireAllOrNone(RUN_COUNT_KEYS));
const testsDay = z
  .object({ date: apiDate, ...TEST_FIGURES })
  .superRefine(requireAllOrNone(TEST_COUNT_KEYS))
  .superRefine(flakyWithinPassed);
const runsOverall = z.object(RUN_FIGURES).superRefine(requireAllOrNone(RUN_COUNT_KEYS));
const testsOverall = z
  .object(TEST_FIGURES)
  .superRefine(requireAllOrNone(TEST_COUNT_KEYS))
  .superRefine(flakyWithinPassed);

/** The answer's shape; exported for the test that holds `isWellFormedInsights` to it. */
export const insightsBody = z.object({
  start_date: isoDate,
  end_date: isoDate,
  timezone: z.string().min(1),
  runs: z.object({
    runs_volume_data: z.array(runsDay),
    overall_data: runsOverall,
  }),
  tests: z.object({
    tests_volume_data: z.array(testsDay),
    overall_data: testsOverall,
  }),
});

/** Checks and maps an insights body; every day of the range must be present, oldest first. */
export function parseInsightsBody(body: unknown, projectId: string): Parsed<ProjectInsights> {
  // An answer that fits is checked by plain code; zod reads the others, to name what is wrong.
  if (isWellFormedInsights(body)) return mapInsights(body as WireInsights, projectId);
  const result = insightsBody.safeParse(body);
  if (!result.success) return problemOf(result.error);
  return mapInsights(result.data, projectId);
}

/** The schema's shape, as zod gives it. */
type WireInsights = z.output<typeof insightsBody>;

/** The checks across fields (the days' count and dates), then the days in camelCase. */
function mapInsights(wire: WireInsights, projectId: string): Parsed<ProjectInsights> {
  const span = daysBetween(wire.start_date, wire.end_date);
  if (span < 0) {
    return fail("start_date", `is after end_date (${wire.start_date} > ${wire.end_date})`);
  }
  const runsCount = countDays(wire.runs.runs_volume_data, "runs.runs_volume_data", wire, span);
  if (runsCount) return runsCount;
  const testsCount = countDays(wire.tests.tests_volume_data, "tests.tests_volume_data", wire, span);
  if (testsCount) return testsCount;
  // Every date of the range, once, for both lists of days and the mapping below (a chart's
  // 28-day answers made per-day date arithmetic a visible part of a cycle's parsing); only
  // once the lists are known to hold that many days, so a range of centuries costs nothing.
  const dates = datesIn({ start: wire.start_date, end: wire.end_date });
  const runsGap = checkDates(wire.runs.runs_volume_data, "runs.runs_volume_data", dates);
  if (runsGap) return runsGap;
  const testsGap = checkDates(wire.tests.tests_volume_data, "tests.tests_volume_data", dates);
  if (testsGap) return testsGap;
  // Empty totals over days that carry data would silently report nothing.
  if (
    wire.runs.overall_data.passed_runs_count === undefined &&
    wire.runs.runs_volume_data.some((day) => day.passed_runs_count !== undefined)
  ) {
    return fail("runs.overall_data.passed_runs_count", "missing, although the days carry runs");
  }
  if (
    wire.tests.overall_data.passed_tests_count === undefined &&
    wire.tests.tests_volume_data.some((day) => day.passed_tests_count !== undefined)
  ) {
    return fail(
      "tests.overall_data.passed_tests_count",
      "missing, although the days carry test results",
    );
  }
  const days: InsightsDay[] = dates.map((date, i) => {
    const runDay = wire.runs.runs_volume_data[i];
    const testDay = wire.tests.tests_volume_data[i];
    return {
      date,
      runs: runDay?.passed_runs_count === undefined ? null : runCounts(runDay),
      tests: testDay?.passed_tests_count === undefined ? null : testCounts(testDay),
    };
  });
  return {
    ok: true,
    value: {
      projectId,
      startDate: wire.start_date,
      endDate: wire.end_date,
      timezone: wire.timezone,
      days,
      overall: {
        runs: runCounts(wire.runs.overall_data),
        tests: testCounts(wire.tests.overall_data),
      },
    },
  };
}

/** Every day of the range must be present: `span` + 1 of them. */
function countDays(
  days: readonly unknown[],
  field: string,
  range: { start_date: string; end_date: string },
  span: number,
): Parsed<never> | null {
  if (days.length === span + 1) return null;
  const { start_date: start, end_date: end } = range;
  return fail(field, `expected ${span + 1} days (${start} to ${end}), got ${days.length}`);
}

/** The days are the range's dates, oldest first (as many as `countDays` found). */
function checkDates(
  days: readonly { date: string }[],
  field: string,
  dates: readonly string[],
): Parsed<never> | null {
  for (const [i, day] of days.entries()) {
    const expected = dates[i] ?? "";
    if (parseApiDate(day.date) !== expected) {
      return fail(
        `${field}[${i}].date`,
        `expected "${formatApiDate(expected)}" (every day of the range, oldest first), got "${day.date}"`,
      );
    }
  }
  return null;
}

function runCounts(wire: {
  passed_runs_count?: number;
  failed_runs_count?: number;
  average_run_duration?: number | undefined;
}): RunCounts {
  const passed = wire.passed_runs_count ?? 0;
  const failed = wire.failed_runs_count ?? 0;
  const meanDurationMs = passed + failed > 0 ? (wire.average_run_duration ?? null) : null;
  return { passed, failed, meanDurationMs };
}

function testCounts(wire: {
  passed_tests_count?: number;
  failed_tests_count?: number;
  skipped_tests_count?: number;
  flaky_tests_count?: number;
  timed_out_tests_count?: number;
}): TestCounts {
  return {
    passed: wire.passed_tests_count ?? 0,
    failed: wire.failed_tests_count ?? 0,
    skipped: wire.skipped_tests_count ?? 0,
    flaky: wire.flaky_tests_count ?? 0,
    timedOut: wire.timed_out_tests_count ?? 0,
  };
}
