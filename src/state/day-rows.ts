import type { StoredDay } from "./day-store.js";

// The row of a stored day, the same columns in SQLite and PostgreSQL.

export interface DayRow {
  date: string;
  runs_passed: number | null;
  runs_failed: number | null;
  run_mean_ms: number | null;
  tests_passed: number | null;
  tests_failed: number | null;
  tests_skipped: number | null;
  tests_flaky: number | null;
  tests_timed_out: number | null;
  fetched_at: string | Date;
}

export const DAY_COLUMNS =
  "date, runs_passed, runs_failed, run_mean_ms, tests_passed, tests_failed, tests_skipped, tests_flaky, tests_timed_out, fetched_at";

/**
 * The end of both stores' INSERT of day rows: a copy fetched later wins; an older copy arriving
 * late (a slow replica) is not written over it.
 */
export const KEEP_LATEST_FETCH = `ON CONFLICT (project, filters, zone, date) DO UPDATE SET
  runs_passed = excluded.runs_passed, runs_failed = excluded.runs_failed,
  run_mean_ms = excluded.run_mean_ms, tests_passed = excluded.tests_passed,
  tests_failed = excluded.tests_failed, tests_skipped = excluded.tests_skipped,
  tests_flaky = excluded.tests_flaky, tests_timed_out = excluded.tests_timed_out,
  fetched_at = excluded.fetched_at
WHERE excluded.fetched_at >= insight_days.fetched_at`;

/** The values of a day's row after its series, in `DAY_COLUMNS` order. */
export function dayValues(day: StoredDay): (string | number | null)[] {
  return [
    day.date,
    day.runs?.passed ?? null,
    day.runs?.failed ?? null,
    day.runs?.meanDurationMs ?? null,
    day.tests?.passed ?? null,
    day.tests?.failed ?? null,
    day.tests?.skipped ?? null,
    day.tests?.flaky ?? null,
    day.tests?.timedOut ?? null,
    day.fetchedAt.toISOString(),
  ];
}

export function dayFromRow(row: DayRow): StoredDay {
  return {
    date: row.date,
    runs:
      row.runs_passed === null
        ? null
        : {
            passed: Number(row.runs_passed),
            failed: Number(row.runs_failed ?? 0),
            meanDurationMs: row.run_mean_ms === null ? null : Number(row.run_mean_ms),
          },
    tests:
      row.tests_passed === null
        ? null
        : {
            passed: Number(row.tests_passed),
            failed: Number(row.tests_failed ?? 0),
            skipped: Number(row.tests_skipped ?? 0),
            flaky: Number(row.tests_flaky ?? 0),
            timedOut: Number(row.tests_timed_out ?? 0),
          },
    fetchedAt: new Date(row.fetched_at),
  };
}
