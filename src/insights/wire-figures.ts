import * as z from "zod";

// The figures of a day and of the totals, as the API sends them, and the values they may
// take. What the API cannot mean is refused here, naming the field, rather than rendered:
// a mean run of 1e300 ms, or more flaky tests than passed ones (a flaky rate above 100%).
//
// Not checked: that a rate matches its counts. The API's "percentage of the day's runs that
// passed" may count runs that neither passed nor failed (cancelled, still running), and its
// rounding is not documented, so a mismatch is no proof of a wrong figure.

/** Longer than any CI would let a run go: a mean past it is a unit or encoding mistake. */
export const MAX_RUN_DURATION_MS = 7 * 24 * 3_600_000;

// zod's int() also refuses counts beyond 2^53, which would not be exact.
const count = z.number().int().nonnegative();

// Rates are never read (figures come from counts), so null is let through; a number outside
// 0–100 still says the body is wrong.
const percent = z
  .number()
  .min(0, "expected a percentage from 0 to 100")
  .max(100, "expected a percentage from 0 to 100")
  .nullable()
  .optional();

const duration = z
  .number()
  .nonnegative()
  .max(
    MAX_RUN_DURATION_MS,
    `a mean run of more than 7 days (${MAX_RUN_DURATION_MS} ms) is not a real figure — the API should send milliseconds`,
  );

export const RUN_COUNT_KEYS = ["passed_runs_count", "failed_runs_count"] as const;
export const TEST_COUNT_KEYS = [
  "passed_tests_count",
  "failed_tests_count",
  "skipped_tests_count",
  "flaky_tests_count",
  "timed_out_tests_count",
] as const;

export const RUN_PERCENT_KEYS = ["average_passing_rate"] as const;
export const TEST_PERCENT_KEYS = [
  "pass_percentage",
  "fail_percentage",
  "skip_percentage",
  "flaky_percentage",
  "timed_out_percentage",
  "average_passing_rate",
  "average_flakiness_rate",
] as const;

// Each object is empty (no data: a day carries only its `date`, an empty range's totals are
// `{}`) or complete.
export const RUN_FIGURES = {
  passed_runs_count: count.optional(),
  failed_runs_count: count.optional(),
  average_passing_rate: percent,
  average_run_duration: duration.optional(),
};
export const TEST_FIGURES = {
  passed_tests_count: count.optional(),
  failed_tests_count: count.optional(),
  skipped_tests_count: count.optional(),
  flaky_tests_count: count.optional(),
  timed_out_tests_count: count.optional(),
  pass_percentage: percent,
  fail_percentage: percent,
  skip_percentage: percent,
  flaky_percentage: percent,
  timed_out_percentage: percent,
  average_passing_rate: percent,
  average_flakiness_rate: percent,
};

type Ctx = z.core.$RefinementCtx<Record<string, unknown>>;

/** A day sent with only `date` has no data; a day with any count must carry all of them. */
export function requireAllOrNone(keys: readonly string[]) {
  return (figures: Record<string, unknown>, ctx: Ctx) => {
    const present = keys.filter((key) => figures[key] !== undefined);
    if (present.length === 0) return;
    for (const key of keys) {
      if (figures[key] === undefined) {
        ctx.addIssue({ code: "custom", path: [key], message: "expected number, missing" });
      }
    }
  };
}

/** Passed tests include the flaky ones (insights-api.md), so there cannot be more flaky. */
export function flakyWithinPassed(
  figures: { passed_tests_count?: number; flaky_tests_count?: number },
  ctx: Ctx,
) {
  const { passed_tests_count: passed, flaky_tests_count: flaky } = figures;
  if (passed === undefined || flaky === undefined || flaky <= passed) return;
  ctx.addIssue({
    code: "custom",
    path: ["flaky_tests_count"],
    message: `${flaky} is more than passed_tests_count (${passed}), which includes the flaky ones`,
  });
}
