import type { CronFieldCollection } from "cron-parser";

// Stepping through a cron expression's fires on a wall clock carried as UTC milliseconds (see
// `zone-clock.ts`): there is no DST on it, so a fire is simply a whole minute whose fields
// match. cron-parser parses and checks the expression; the stepping is ours, field by field
// (a month, a day, an hour at a time), because cron-parser's own iteration builds luxon dates
// at every step: a millisecond a step, which made `check-config` and a daemon's first plan
// slow. The matching rules are cron-parser's (`test/timetable/wall-clock-schedule.test.ts`
// compares the two on random expressions): day of month and day of week match either when both
// are restricted, `L` is a month's last day (or last such weekday), `#n` its nth such weekday.

export interface WallClockSchedule {
  /** The first matching whole minute strictly after `wallMs`, or null when none comes. */
  next(wallMs: number): number | null;
  /** The last matching whole minute strictly before `wallMs`, or null when none was. */
  prev(wallMs: number): number | null;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
/** Steps before giving up, as cron-parser does: decades even for a leap day's schedule. */
const STEP_LIMIT = 10_000;

/** The schedule of parsed 5-field cron `fields`. */
export function wallClockSchedule(fields: CronFieldCollection): WallClockSchedule {
  const minutes = allowed(fields.minute.values, 60);
  const hours = allowed(fields.hour.values, 24);
  const months = allowed(fields.month.values, 13);
  const matchesDay = dayMatcher(fields);

  return {
    next(wallMs) {
      let t = Math.floor(wallMs / MINUTE_MS) * MINUTE_MS + MINUTE_MS;
      for (let step = 0; step < STEP_LIMIT; step++) {
        const date = new Date(t);
        const day = Math.floor(t / DAY_MS) * DAY_MS;
        if (!months[date.getUTCMonth() + 1]) {
          t = Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
        } else if (!matchesDay(date)) {
          t = day + DAY_MS;
        } else if (!hours[date.getUTCHours()]) {
          const hour = firstFrom(hours, date.getUTCHours() + 1, 1);
          t = hour === null ? day + DAY_MS : day + hour * HOUR_MS;
        } else if (!minutes[date.getUTCMinutes()]) {
          const hourStart = Math.floor(t / HOUR_MS) * HOUR_MS;
          const minute = firstFrom(minutes, date.getUTCMinutes() + 1, 1);
          t = minute === null ? hourStart + HOUR_MS : hourStart + minute * MINUTE_MS;
        } else {
          return t;
        }
      }
      return null;
    },

    prev(wallMs) {
      let t = Math.ceil(wallMs / MINUTE_MS) * MINUTE_MS - MINUTE_MS;
      for (let step = 0; step < STEP_LIMIT; step++) {
        const date = new Date(t);
        const day = Math.floor(t / DAY_MS) * DAY_MS;
        if (!months[date.getUTCMonth() + 1]) {
          t = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1) - MINUTE_MS;
        } else if (!matchesDay(date)) {
          t = day - MINUTE_MS;
        } else if (!hours[date.getUTCHours()]) {
          const hour = firstFrom(hours, date.getUTCHours() - 1, -1);
          t = hour === null ? day - MINUTE_MS : day + hour * HOUR_MS + 59 * MINUTE_MS;
        } else if (!minutes[date.getUTCMinutes()]) {
          const hourStart = Math.floor(t / HOUR_MS) * HOUR_MS;
          const minute = firstFrom(minutes, date.getUTCMinutes() - 1, -1);
          t = minute === null ? hourStart - MINUTE_MS : hourStart + minute * MINUTE_MS;
        } else {
          return t;
        }
      }
      return null;
    },
  };
}

/** Whether a date's day matches, by cron-parser's rules for day of month and day of week. */
function dayMatcher(fields: CronFieldCollection): (date: Date) => boolean {
  const { dayOfMonth, dayOfWeek } = fields;
  const monthDays = allowed(dayOfMonth.values, 32);
  const weekdays = allowed(dayOfWeek.values, 8);
  const nth = dayOfWeek.nthDay;
  // "5L": the last Friday. cron-parser reads the weekday from each value's first character.
  const lastWeekdays = new Set(
    dayOfWeek.values.map((v) => Number.parseInt(String(v)[0] ?? "", 10) % 7),
  );
  return (date) => {
    const monthDay = date.getUTCDate();
    const weekday = date.getUTCDay();
    const length = daysInMonth(date);
    const domMatch =
      monthDays[monthDay] === true || (dayOfMonth.hasLastChar && monthDay === length);
    const dowMatch =
      (weekdays[weekday] === true && (nth <= 0 || Math.ceil(monthDay / 7) === nth)) ||
      (dayOfWeek.hasLastChar && monthDay > length - 7 && lastWeekdays.has(weekday));
    // Both restricted: either will do. Otherwise the restricted one decides.
    if (!dayOfMonth.isWildcard && !dayOfWeek.isWildcard) return domMatch || dowMatch;
    return dayOfWeek.isWildcard ? domMatch : dowMatch;
  };
}

/** A lookup of the field's numeric values (`L` and `5L` are read elsewhere). */
function allowed(values: readonly (number | string)[], size: number): boolean[] {
  const table = new Array<boolean>(size).fill(false);
  for (const value of values) if (typeof value === "number" && value < size) table[value] = true;
  return table;
}

/** The first allowed index from `start` on, walking by `direction`; null past either end. */
function firstFrom(table: readonly boolean[], start: number, direction: 1 | -1): number | null {
  for (let i = start; i >= 0 && i < table.length; i += direction) if (table[i]) return i;
  return null;
}

function daysInMonth(date: Date): number {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
}
