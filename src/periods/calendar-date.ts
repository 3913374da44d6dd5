import { DateTime } from "luxon";
import { UnknownTimezoneError } from "../errors.js";
import type { Weekday } from "./types.js";

// Calendar arithmetic on ISO dates ("2026-11-15"). Once an instant has been turned into a local
// date, periods are plain calendar dates: days are added in UTC so no DST transition can make a
// day 23 or 25 hours long or skip a date. Plain `Date` arithmetic in UTC, not luxon: parsing a
// day's insights adds days per bucket, and a DateTime per call made that a third of a cycle's CPU.

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

/** The instant a date begins in UTC, in milliseconds; NaN for text that is no date. */
function utcMs(date: string): number {
  return Date.parse(`${date}T00:00:00Z`);
}

function iso(ms: number): string {
  // Empty only for an invalid date, which the callers never produce.
  if (Number.isNaN(ms)) return "";
  const text = new Date(ms).toISOString();
  return text.slice(0, text.indexOf("T"));
}

/** Whether `value` is a real calendar date written as YYYY-MM-DD. */
export function isIsoDate(value: string): boolean {
  // Date.parse takes "2026-02-30" for March 2: a real date survives the round trip.
  return ISO_DATE.test(value) && iso(utcMs(value)) === value;
}

/** The calendar date an instant falls on in an IANA zone. */
export function localDateOf(instant: Date, timezone: string): string {
  const local = DateTime.fromJSDate(instant, { zone: timezone });
  if (!local.isValid) {
    if (Number.isNaN(instant.getTime())) {
      throw new RangeError("the fire instant is not a valid date");
    }
    throw new UnknownTimezoneError(
      `timezone "${timezone}" is not a recognised IANA name — use one such as Europe/Berlin or America/New_York`,
      { timezone },
    );
  }
  return local.toISODate() ?? "";
}

/** The instant a calendar date begins in an IANA zone (its first valid minute, across DST). */
export function startOfLocalDay(date: string, timezone: string): Date {
  return DateTime.fromISO(date, { zone: timezone }).startOf("day").toJSDate();
}

/** The date `days` calendar days after `date` (before, when negative). */
export function addDays(date: string, days: number): string {
  return iso(utcMs(date) + days * DAY_MS);
}

/** The first day of the month `months` months after the month of `date`. */
export function monthStart(date: string, months = 0): string {
  const day = new Date(utcMs(date));
  // setUTCFullYear, not Date.UTC, which reads years 0–99 as 1900–1999.
  return iso(day.setUTCFullYear(day.getUTCFullYear(), day.getUTCMonth() + months, 1));
}

/**
 * The date `months` calendar months after `date` (before, when negative). A day the month
 * reached lacks becomes its last day, as luxon's `plus({ months })` does: 31 May less 3 months
 * is 28 February, never 3 March.
 */
export function addMonths(date: string, months: number): string {
  const first = monthStart(date, months);
  const daysInMonth = daysBetween(first, monthStart(first, 1));
  const day = Number(date.slice(8, 10));
  return addDays(first, Math.min(day, daysInMonth) - 1);
}

/** The first day of the calendar quarter `quarters` quarters after the quarter of `date`. */
export function quarterStart(date: string, quarters = 0): string {
  const month = new Date(utcMs(date)).getUTCMonth();
  return monthStart(date, -(month % 3) + 3 * quarters);
}

/** Luxon weekday of a date: 1 = Monday … 7 = Sunday. */
export function weekdayOf(date: string): Weekday {
  return (((new Date(utcMs(date)).getUTCDay() + 6) % 7) + 1) as Weekday;
}

/** Every date of a period, oldest first. */
export function datesIn(period: { start: string; end: string }): string[] {
  const dates: string[] = [];
  const end = utcMs(period.end);
  for (let ms = utcMs(period.start); ms <= end; ms += DAY_MS) dates.push(iso(ms));
  return dates;
}

/** Whole days from `start` to `end` (0 when equal, negative when `end` is earlier). */
export function daysBetween(start: string, end: string): number {
  return Math.round((utcMs(end) - utcMs(start)) / DAY_MS);
}

/** Number of days in a period, both ends included. */
export function periodDays(period: { start: string; end: string }): number {
  return daysBetween(period.start, period.end) + 1;
}
