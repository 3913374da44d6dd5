import { formatApiDate } from "../../src/insights/api-date.js";
import { addDays, daysBetween } from "../../src/periods/calendar-date.js";

/** Builders of insights bodies in the API's wire format, for tests. */

export type WireBody = {
  start_date: string;
  end_date: string;
  timezone: string;
  runs: { runs_volume_data: Record<string, unknown>[]; overall_data: Record<string, unknown> };
  tests: { tests_volume_data: Record<string, unknown>[]; overall_data: Record<string, unknown> };
};

/** `part` of `whole` in percent; null for 0 of 0, as NaN goes over the wire as JSON. */
function rate(part: number, whole: number): number | null {
  return whole === 0 ? null : (100 * part) / whole;
}

/** A full runs day; `passed + failed` runs averaging `durationMs`. */
export function runsDay(iso: string, passed = 8, failed = 2, durationMs = 600_000) {
  return {
    date: formatApiDate(iso),
    passed_runs_count: passed,
    failed_runs_count: failed,
    average_passing_rate: rate(passed, passed + failed),
    average_run_duration: durationMs,
  };
}

export function testsDay(
  iso: string,
  counts = { passed: 90, failed: 5, skipped: 3, flaky: 4, timedOut: 2 },
) {
  const total = counts.passed + counts.failed + counts.skipped + counts.timedOut;
  return {
    date: formatApiDate(iso),
    passed_tests_count: counts.passed,
    failed_tests_count: counts.failed,
    skipped_tests_count: counts.skipped,
    flaky_tests_count: counts.flaky,
    timed_out_tests_count: counts.timedOut,
    pass_percentage: rate(counts.passed, total),
    flaky_percentage: rate(counts.flaky, total),
    average_passing_rate: rate(counts.passed, total),
    average_flakiness_rate: rate(counts.flaky, total),
  };
}

/** A body for `start..end` where every day has data, unless listed in `emptyDays`. */
export function wireInsights(start: string, end: string, emptyDays: string[] = []): WireBody {
  const isos = Array.from({ length: daysBetween(start, end) + 1 }, (_, i) => addDays(start, i));
  return {
    start_date: start,
    end_date: end,
    timezone: "Europe/Berlin",
    runs: {
      runs_volume_data: isos.map((d) =>
        emptyDays.includes(d) ? { date: formatApiDate(d) } : runsDay(d),
      ),
      overall_data: {
        passed_runs_count: 80,
        failed_runs_count: 20,
        average_passing_rate: 80,
        average_run_duration: 612_345,
      },
    },
    tests: {
      tests_volume_data: isos.map((d) =>
        emptyDays.includes(d) ? { date: formatApiDate(d) } : testsDay(d),
      ),
      overall_data: {
        passed_tests_count: 900,
        failed_tests_count: 50,
        skipped_tests_count: 30,
        flaky_tests_count: 40,
        timed_out_tests_count: 20,
        average_passing_rate: 90,
        average_flakiness_rate: 4,
      },
    },
  };
}
