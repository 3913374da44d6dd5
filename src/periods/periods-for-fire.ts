import { UsageError } from "../errors.js";
import {
  addDays,
  localDateOf,
  monthStart,
  periodDays,
  quarterStart,
  weekdayOf,
} from "./calendar-date.js";
import { priorOfRange } from "./period-for-range.js";
import type { CompareTo, Period, PeriodKind, PeriodPair, Weekday } from "./types.js";

export interface FireInput {
  /** The scheduled instant of the slot, not the wall clock: a late run still reports its slot. */
  fireAt: Date;
  /** IANA zone whose local days the periods are made of. */
  timezone: string;
  kind: PeriodKind;
  compareTo: CompareTo;
  weekStartsOn: Weekday;
  /**
   * The schedule's fire before `fireAt` (null when it has none), for `since_previous_run`. The
   * caller finds it with the cron helpers: periods code never reads a schedule or the clock.
   */
  previousFireAt?: Date | null;
}

/** The period a fire covers and the period it is compared with, as whole local days. */
export function periodsForFire(input: FireInput): PeriodPair {
  const today = localDateOf(input.fireAt, input.timezone);
  const previousDay = input.previousFireAt
    ? localDateOf(input.previousFireAt, input.timezone)
    : null;
  const current = currentPeriod(input.kind, today, input.weekStartsOn, previousDay);
  const pair = {
    kind: input.kind,
    compareTo: input.compareTo,
    current,
    prior: priorPeriod(input.kind, input.compareTo, current),
  };
  const baseline = medianBaseline(input.compareTo, current);
  return baseline ? { ...pair, baseline } : pair;
}

/** Weeks a median baseline reaches back. */
const BASELINE_WEEKS = 4;

/**
 * `median_of_4_weeks`: the same span 1 to 4 weeks earlier, newest first (a daily digest's
 * 4 previous same weekdays, a weekly one's 4 previous weeks); null for other comparisons and
 * for a since_previous_run span longer than a week, which is compared with the span before.
 */
export function medianBaseline(compareTo: CompareTo, current: Period): Period[] | null {
  if (compareTo !== "median_of_4_weeks" || periodDays(current) > 7) return null;
  return Array.from({ length: BASELINE_WEEKS }, (_, i) => ({
    start: addDays(current.start, -7 * (i + 1)),
    end: addDays(current.end, -7 * (i + 1)),
  }));
}

/**
 * The period of `kind` that a fire on local date `today` covers; it always ends before `today`.
 * `previousDay` is the local date of the schedule's previous fire (for `since_previous_run`).
 */
function currentPeriod(
  kind: PeriodKind,
  today: string,
  weekStartsOn: Weekday,
  previousDay: string | null = null,
): Period {
  const yesterday = addDays(today, -1);
  switch (kind) {
    case "previous_day":
      return { start: yesterday, end: yesterday };
    case "since_previous_run":
      // Every whole day from the previous fire's day on: Monday's "0 9 * * 1-5" covers Fri–Sun.
      // Without a previous fire, or with one earlier today, there is only yesterday to report.
      return {
        start: previousDay !== null && previousDay <= yesterday ? previousDay : yesterday,
        end: yesterday,
      };
    case "previous_week": {
      const thisWeekStart = addDays(today, -((weekdayOf(today) - weekStartsOn + 7) % 7));
      return { start: addDays(thisWeekStart, -7), end: addDays(thisWeekStart, -1) };
    }
    case "previous_month":
      return { start: monthStart(today, -1), end: addDays(monthStart(today), -1) };
    case "previous_quarter":
      return { start: quarterStart(today, -1), end: addDays(quarterStart(today), -1) };
    case "last_7_days":
      return { start: addDays(today, -7), end: yesterday };
    case "last_28_days":
      return { start: addDays(today, -28), end: yesterday };
  }
}

/** The period `current` is compared with. */
function priorPeriod(kind: PeriodKind, compareTo: CompareTo, current: Period): Period {
  if (compareTo === "median_of_4_weeks" && periodDays(current) <= 7) {
    return { start: addDays(current.start, -28), end: addDays(current.end, -7) };
  }
  // Days since the previous run vary (Mon covers Fri–Sun, Tue only Mon): the same weekdays a
  // week earlier compare like with like. Longer spans (a monthly cron) take the span before.
  if (kind === "since_previous_run") {
    if (periodDays(current) > 7) return priorOfRange(current);
    return { start: addDays(current.start, -7), end: addDays(current.end, -7) };
  }
  if (compareTo === "same_period_last_week" || compareTo === "median_of_4_weeks") {
    const days = periodDays(current);
    if (days > 7) {
      throw new UsageError(
        `compare_to: ${compareTo} needs a period of at most 7 days, but ${kind} spans ${days} — use compare_to: previous_period`,
      );
    }
    return { start: addDays(current.start, -7), end: addDays(current.end, -7) };
  }
  if (compareTo === "same_period_last_year") return sameSpanLastYear(kind, current);
  // Months differ in length; comparing with "the 31 days before" would straddle two months.
  if (kind === "previous_month") {
    return { start: monthStart(current.start, -1), end: addDays(current.start, -1) };
  }
  if (kind === "previous_quarter") {
    return { start: monthStart(current.start, -3), end: addDays(current.start, -1) };
  }
  return priorOfRange(current);
}

/** Days of the week a year earlier: 52 weeks back, so that Mondays compare with Mondays. */
const WEEKS_IN_A_YEAR_DAYS = 52 * 7;

/**
 * The same span a year earlier. Calendar months and quarters are the same months a year back
 * (February's length follows its year); spans of days go 52 weeks back, so a week compares
 * with the same weekdays (weekends run fewer suites) instead of a span shifted by a day or two.
 */
function sameSpanLastYear(kind: PeriodKind, current: Period): Period {
  if (kind === "previous_month" || kind === "previous_quarter") {
    return {
      start: monthStart(current.start, -12),
      end: addDays(monthStart(current.end, -11), -1),
    };
  }
  return {
    start: addDays(current.start, -WEEKS_IN_A_YEAR_DAYS),
    end: addDays(current.end, -WEEKS_IN_A_YEAR_DAYS),
  };
}
