import { UsageError } from "../errors.js";
import { addDays, localDateOf, monthStart, periodDays, weekdayOf } from "./calendar-date.js";
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
}

/** The period a fire covers and the period it is compared with, as whole local days. */
export function periodsForFire(input: FireInput): PeriodPair {
  const today = localDateOf(input.fireAt, input.timezone);
  const current = currentPeriod(input.kind, today, input.weekStartsOn);
  return {
    kind: input.kind,
    compareTo: input.compareTo,
    current,
    prior: priorPeriod(input.kind, input.compareTo, current),
  };
}

/** The period of `kind` that a fire on local date `today` covers; it always ends before `today`. */
export function currentPeriod(kind: PeriodKind, today: string, weekStartsOn: Weekday): Period {
  const yesterday = addDays(today, -1);
  switch (kind) {
    case "previous_day":
      return { start: yesterday, end: yesterday };
    case "previous_week": {
      const thisWeekStart = addDays(today, -((weekdayOf(today) - weekStartsOn + 7) % 7));
      return { start: addDays(thisWeekStart, -7), end: addDays(thisWeekStart, -1) };
    }
    case "previous_month":
      return { start: monthStart(today, -1), end: addDays(monthStart(today), -1) };
    case "last_7_days":
      return { start: addDays(today, -7), end: yesterday };
    case "last_28_days":
      return { start: addDays(today, -28), end: yesterday };
  }
}

/** The period `current` is compared with. */
export function priorPeriod(kind: PeriodKind, compareTo: CompareTo, current: Period): Period {
  if (compareTo === "same_period_last_week") {
    const days = periodDays(current);
    if (days > 7) {
      throw new UsageError(
        `compare_to: same_period_last_week needs a period of at most 7 days, but ${kind} spans ${days} — use compare_to: previous_period`,
      );
    }
    return { start: addDays(current.start, -7), end: addDays(current.end, -7) };
  }
  // Months differ in length; comparing with "the 31 days before" would straddle two months.
  if (kind === "previous_month") {
    return { start: monthStart(current.start, -1), end: addDays(current.start, -1) };
  }
  return priorOfRange(current);
}
