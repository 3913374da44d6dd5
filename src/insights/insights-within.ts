import type { Period } from "../periods/types.js";
import type { InsightsDay, ProjectInsights, RunCounts, TestCounts } from "./types.js";

// A range's insights cut to a period inside it: what asking the API for that period alone would
// have given, from the range's days. One request for a digest's period and the prior one before
// it (adjacent) thus answers both: a request costs the API a round trip and us a socket write,
// a parse and a check, whatever its number of days.

/**
 * The totals of some days: counts summed, the mean duration weighted by the runs of the days
 * that have one (a day's runs without a mean say nothing of the others' durations).
 */
export function totalsOfDays(days: readonly InsightsDay[]): ProjectInsights["overall"] {
  const runs: RunCounts = { passed: 0, failed: 0, meanDurationMs: null };
  const tests: TestCounts = { passed: 0, failed: 0, skipped: 0, flaky: 0, timedOut: 0 };
  let durationTotal = 0;
  let timedRuns = 0;
  for (const day of days) {
    if (day.runs) {
      runs.passed += day.runs.passed;
      runs.failed += day.runs.failed;
      if (day.runs.meanDurationMs !== null) {
        const count = day.runs.passed + day.runs.failed;
        durationTotal += day.runs.meanDurationMs * count;
        timedRuns += count;
      }
    }
    if (day.tests) {
      tests.passed += day.tests.passed;
      tests.failed += day.tests.failed;
      tests.skipped += day.tests.skipped;
      tests.flaky += day.tests.flaky;
      tests.timedOut += day.tests.timedOut;
    }
  }
  // Day means are whole milliseconds, so the range's mean may differ from the API's by under 1 ms.
  if (timedRuns > 0) runs.meanDurationMs = Math.round(durationTotal / timedRuns);
  return { runs, tests };
}

/**
 * `period`'s insights from those of a range holding it, or null when the range cannot answer
 * for it as the API would: days of it are missing (past the API's lookback), or the API ended
 * the range (its today) before the period starts.
 */
export function insightsWithin(range: ProjectInsights, period: Period): ProjectInsights | null {
  if ((range.missingDays ?? []).length > 0) return null;
  // A period ending after the range did was cut at the API's today, as asked alone it would be.
  if (period.start < range.startDate || period.start > range.endDate) return null;
  const end = period.end < range.endDate ? period.end : range.endDate;
  const days = range.days.filter((day) => day.date >= period.start && day.date <= end);
  return {
    projectId: range.projectId,
    startDate: period.start,
    endDate: end,
    timezone: range.timezone,
    days,
    overall: totalsOfDays(days),
  };
}
