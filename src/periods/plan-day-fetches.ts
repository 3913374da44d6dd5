import { addDays, datesIn, localDateOf, startOfLocalDay } from "./calendar-date.js";

// Which days of a range to ask the insights API for, given the days the store holds. A day is
// final once it was fetched after it settled (it ended more than `settleAfterMs` before the
// fetch): runs uploaded late land in a day until then, so an earlier copy may still be short.
// Final days are never asked again. The days not final are asked in as few ranges as possible,
// and those near today as one fixed window, so that every digest and alert of a run asks the
// same request for them, whatever its own range, and shares it.

export interface DayFetchPlanInput {
  /** ISO dates, inclusive, in `timezone`. */
  start: string;
  end: string;
  timezone: string;
  /** When each held day was fetched (epoch ms), by ISO date. */
  held: ReadonlyMap<string, number>;
  nowMs: number;
  /** The date of `nowMs` in `timezone`, when the caller has it (worked out from `nowMs` otherwise). */
  today?: string;
  settleAfterMs: number;
  /**
   * A day not yet final but fetched less than this long ago is not asked again: the digests and
   * alerts of one daemon tick, run one after another, share the recent days one of them asked.
   */
  freshForMs?: number;
}

export interface DateRange {
  start: string;
  end: string;
}

const DAY_MS = 86_400_000;

/** UTC offsets run from −12 h to +14 h: a local day ends within these bounds of its UTC end. */
const LATEST_END_MS = 12 * 3_600_000;
const EARLIEST_END_MS = 14 * 3_600_000;

/** Whether a day fetched at `fetchedAtMs` holds its final figures. */
export function isFinalDay(
  date: string,
  timezone: string,
  fetchedAtMs: number,
  settleAfterMs: number,
): boolean {
  // Most held days were fetched long after they ended, in any zone: answered without luxon,
  // whose DateTime per day was a 2-year export's largest cost (6 of 17 s).
  // The next day's UTC midnight is this one's plus a day (UTC has no DST): no date string made.
  const utcEnd = Date.parse(`${date}T00:00:00Z`) + DAY_MS;
  if (fetchedAtMs - (utcEnd + LATEST_END_MS) > settleAfterMs) return true;
  if (fetchedAtMs - (utcEnd - EARLIEST_END_MS) <= settleAfterMs) return false;
  const endsAt = startOfLocalDay(addDays(date, 1), timezone).getTime();
  return fetchedAtMs - endsAt > settleAfterMs;
}

/**
 * The recent window: from the oldest day that can still be unsettled (with a day's margin, so
 * a day leaves the window only once a fetch inside it was final) to today.
 */
export function recentWindow(nowMs: number, timezone: string, settleAfterMs: number): DateRange {
  return windowEndingOn(localDateOf(new Date(nowMs), timezone), settleAfterMs);
}

function windowEndingOn(today: string, settleAfterMs: number): DateRange {
  const back = Math.ceil(settleAfterMs / DAY_MS) + 2;
  return { start: addDays(today, -back), end: today };
}

/** The ranges to fetch so that every day of the range is final or fresh; [] when none. */
export function planDayFetches(input: DayFetchPlanInput): DateRange[] {
  const today = input.today ?? localDateOf(new Date(input.nowMs), input.timezone);
  const end = input.end < today ? input.end : today;
  if (input.start > end) return [];
  const window = windowEndingOn(today, input.settleAfterMs);
  const needed = datesIn({ start: input.start, end }).filter((date) => {
    const fetchedAt = input.held.get(date);
    if (fetchedAt === undefined) return true;
    if (input.nowMs - fetchedAt < (input.freshForMs ?? 0)) return false;
    return !isFinalDay(date, input.timezone, fetchedAt, input.settleAfterMs);
  });
  const ranges: DateRange[] = [];
  let windowNeeded = false;
  for (const date of needed) {
    if (date >= window.start) {
      windowNeeded = true;
      continue;
    }
    const last = ranges.at(-1);
    if (last && addDays(last.end, 1) === date) last.end = date;
    else ranges.push({ start: date, end: date });
  }
  if (windowNeeded) {
    // Joined to a range that ends the day before the window: one request instead of two.
    const last = ranges.at(-1);
    if (last && addDays(last.end, 1) === window.start) last.end = window.end;
    else ranges.push({ ...window });
  }
  return ranges;
}
