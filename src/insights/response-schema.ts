import { z } from "zod";
import { addDays, daysBetween, isIsoDate } from "../periods/calendar-date.js";
import { formatApiDate, parseApiDate } from "./api-date.js";
import { fail, type Parsed, problemOf } from "./shape-problem.js";
import type { InsightsDay, ProjectInsights, RunCounts, TestCounts } from "./types.js";

// The wire format of the insights operation, checked where it enters and mapped at once to the
// camelCase types of `types.ts`. Objects are loose: unknown extra fields are ignored, since
// the API may grow. Percentages are not read; figures are computed from counts.

const count = z.number().int().nonnegative();
const apiDate = z.string().refine((text) => parseApiDate(text) !== null, {
  message: 'expected a date like "Nov  2, 2026"',
});
const isoDate = z.string().refine(isIsoDate, { message: "expected an ISO date like 2026-11-02" });

const RUN_COUNT_KEYS = ["passed_runs_count", "failed_runs_count"] as const;
const TEST_COUNT_KEYS = [
  "passed_tests_count",
  "failed_tests_count",
  "skipped_tests_count",
  "flaky_tests_count",
  "timed_out_tests_count",
] as const;

/** A day sent with only `date` has no data; a day with any count must carry all of them. */
function requireAllOrNone(keys: readonly string[]) {
  return (day: Record<string, unknown>, ctx: z.core.$RefinementCtx<Record<string, unknown>>) => {
    const present = keys.filter((key) => day[key] !== undefined);
    if (present.length === 0) return;
    for (const key of keys) {
      if (day[key] === undefined) {
        ctx.addIssue({ code: "custom", path: [key], message: "expected number, missing" });
      }
    }
  };
}

// The counts of a day and of the overall totals; each object is empty (no data: a day carries
// only its `date`, an empty range's totals are `{}`) or complete.
const RUN_COUNTS = {
  passed_runs_count: count.optional(),
  failed_runs_count: count.optional(),
  average_run_duration: z.number().nonnegative().optional(),
};
const TEST_COUNTS = {
  passed_tests_count: count.optional(),
  failed_tests_count: count.optional(),
  skipped_tests_count: count.optional(),
  flaky_tests_count: count.optional(),
  timed_out_tests_count: count.optional(),
};

const runsDay = z
  .object({ date: apiDate, ...RUN_COUNTS })
  .superRefine(requireAllOrNone(RUN_COUNT_KEYS));
const testsDay = z
  .object({ date: apiDate, ...TEST_COUNTS })
  .superRefine(requireAllOrNone(TEST_COUNT_KEYS));
const runsOverall = z.object(RUN_COUNTS).superRefine(requireAllOrNone(RUN_COUNT_KEYS));
const testsOverall = z.object(TEST_COUNTS).superRefine(requireAllOrNone(TEST_COUNT_KEYS));

const insightsBody = z.object({
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
  const result = insightsBody.safeParse(body);
  if (!result.success) return problemOf(result.error);
  const wire = result.data;
  const span = daysBetween(wire.start_date, wire.end_date);
  if (span < 0) {
    return fail("start_date", `is after end_date (${wire.start_date} > ${wire.end_date})`);
  }
  const runsGap = checkDays(
    wire.runs.runs_volume_data,
    "runs.runs_volume_data",
    wire.start_date,
    span,
  );
  if (runsGap) return runsGap;
  const testsGap = checkDays(
    wire.tests.tests_volume_data,
    "tests.tests_volume_data",
    wire.start_date,
    span,
  );
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
  const days: InsightsDay[] = wire.runs.runs_volume_data.map((runDay, i) => {
    const testDay = wire.tests.tests_volume_data[i];
    return {
      date: addDays(wire.start_date, i),
      runs: runDay.passed_runs_count === undefined ? null : runCounts(runDay),
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

function checkDays(
  days: readonly { date: string }[],
  field: string,
  start: string,
  span: number,
): Parsed<never> | null {
  if (days.length !== span + 1) {
    const end = addDays(start, span);
    return fail(field, `expected ${span + 1} days (${start} to ${end}), got ${days.length}`);
  }
  for (const [i, day] of days.entries()) {
    const expected = addDays(start, i);
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
