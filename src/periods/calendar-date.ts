import { DateTime } from "luxon";
import { UnknownTimezoneError } from "../errors.js";
import type { Weekday } from "./types.js";

// Calendar arithmetic on ISO dates ("2026-11-15"). Once an instant has been turned into a local
// date, periods are plain calendar dates: days are added in UTC so no DST transition can make a
// day 23 or 25 hours long or skip a date.

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

function utcDate(date: string): DateTime {
  return DateTime.fromISO(date, { zone: "utc" });
}

function iso(value: DateTime): string {
  // toISODate is null only for an invalid DateTime, which the callers never produce.
  return value.toISODate() ?? "";
}

/** Whether `value` is a real calendar date written as YYYY-MM-DD. */
export function isIsoDate(value: string): boolean {
  return ISO_DATE.test(value) && utcDate(value).isValid;
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
  return iso(local);
}

/** The instant a calendar date begins in an IANA zone (its first valid minute, across DST). */
export function startOfLocalDay(date: string, timezone: string): Date {
  return DateTime.fromISO(date, { zone: timezone }).startOf("day").toJSDate();
}

/** The date `days` calendar days after `date` (before, when negative). */
export function addDays(date: string, days: number): string {
  return iso(utcDate(date).plus({ days }));
}

/** The first day of the month `months` months after the month of `date`. */
export function monthStart(date: string, months = 0): string {
  return iso(utcDate(date).startOf("month").plus({ months }));
}

/** Luxon weekday of a date: 1 = Monday … 7 = Sunday. */
export function weekdayOf(date: string): Weekday {
  return utcDate(date).weekday as Weekday;
}

/** Every date of a period, oldest first. */
export function datesIn(period: { start: string; end: string }): string[] {
  const dates: string[] = [];
  for (let date = period.start; date <= period.end; date = addDays(date, 1)) dates.push(date);
  return dates;
}

/** Whole days from `start` to `end` (0 when equal, negative when `end` is earlier). */
export function daysBetween(start: string, end: string): number {
  return Math.round(utcDate(end).diff(utcDate(start), "days").days);
}

/** Number of days in a period, both ends included. */
export function periodDays(period: { start: string; end: string }): number {
  return daysBetween(period.start, period.end) + 1;
}
