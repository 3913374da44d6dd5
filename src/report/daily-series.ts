import type { InsightsDay } from "../insights/types.js";
import { datesIn } from "../periods/calendar-date.js";
import type { Period } from "../periods/types.js";
import { emptyFigures, figuresFromCounts, sumFigures } from "./figures.js";
import type { DailyPoint } from "./types.js";

const NO_RUNS = { passed: 0, failed: 0, meanDurationMs: null };
const NO_TESTS = { passed: 0, failed: 0, skipped: 0, flaky: 0, timedOut: 0 };

/**
 * One point per day of `period`, oldest first. A day the API sent with only its date, or did
 * not send at all, is a day with zero counts and no rates: no data is not 0%. `missing` days
 * (neither the API nor the store has them) are left out: unknown is not zero either.
 */
export function dailySeries(
  days: readonly InsightsDay[],
  period: Period,
  missing: readonly string[] = [],
): DailyPoint[] {
  // Loops, not map/flatMap: a 2-year export builds 72,700 points, and a pair or an array per
  // point was garbage enough to lift its peak memory.
  const byDate = new Map<string, InsightsDay>();
  for (const day of days) byDate.set(day.date, day);
  const unknown = new Set(missing);
  const points: DailyPoint[] = [];
  for (const date of datesIn(period)) {
    if (unknown.has(date)) continue;
    const day = byDate.get(date);
    points.push({
      date,
      figures: day ? figuresFromCounts(day.runs ?? NO_RUNS, day.tests ?? NO_TESTS) : emptyFigures(),
    });
  }
  return points;
}

/**
 * Several series over the same period summed day by day, rates from the summed counts.
 * `missing` days (no series has them) are left out.
 */
export function sumDailySeries(
  series: readonly DailyPoint[][],
  period: Period,
  missing: readonly string[] = [],
): DailyPoint[] {
  const byDate = new Map<string, DailyPoint["figures"][]>();
  for (const points of series) {
    for (const point of points) {
      const list = byDate.get(point.date);
      if (list) list.push(point.figures);
      else byDate.set(point.date, [point.figures]);
    }
  }
  const unknown = new Set(missing);
  return datesIn(period)
    .filter((date) => !unknown.has(date))
    .map((date) => ({ date, figures: sumFigures(byDate.get(date) ?? []) }));
}
