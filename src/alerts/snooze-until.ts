import { DateTime } from "luxon";

// How long a snooze lasts (issue 24): an hour, a day, or until Monday 09:00 in the team's zone.
// Pure: "now" is handed in.

export type SnoozeLength = "1h" | "1d" | "monday";

export const SNOOZE_LENGTHS: readonly SnoozeLength[] = ["1h", "1d", "monday"];

/** In words, as the menu and the thread say it. */
export const SNOOZE_LABEL: Record<SnoozeLength, string> = {
  "1h": "1 hour",
  "1d": "1 day",
  monday: "until Monday 09:00",
};

/** When a snooze asked for at `now` ends: a day is a calendar day in the zone (DST kept). */
export function snoozeUntil(length: SnoozeLength, now: Date, timezone: string): Date {
  const local = DateTime.fromJSDate(now, { zone: timezone });
  switch (length) {
    case "1h":
      return new Date(now.getTime() + 3_600_000);
    case "1d":
      return local.plus({ days: 1 }).toJSDate();
    case "monday": {
      // The next Monday 09:00 strictly after now: on a Monday morning, that same morning.
      const today = local.set({ hour: 9, minute: 0, second: 0, millisecond: 0 });
      const days = (8 - today.weekday) % 7;
      const monday = today.plus({ days });
      return (monday > local ? monday : monday.plus({ days: 7 })).toJSDate();
    }
  }
}
