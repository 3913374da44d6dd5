import { DateTime } from "luxon";
import { weekdayOf } from "../periods/calendar-date.js";
import type { Period } from "../periods/types.js";

// A schedule's fire and the days it covers, in the words `check-config`, `run`, `preview` and
// `/insights digest` use for it: weekdays matter here more than years.

const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "Fri Oct 23". */
function dayLabel(date: string): string {
  const month = MONTHS[Number(date.slice(5, 7)) - 1] ?? "";
  return `${WEEKDAYS[weekdayOf(date) - 1] ?? ""} ${month} ${Number(date.slice(8, 10))}`;
}

/** "Fri Oct 23 – Sun Oct 25", or "Mon Oct 26" for a single day. */
export function daysLabel(period: Period): string {
  return period.start === period.end
    ? dayLabel(period.start)
    : `${dayLabel(period.start)} \u2013 ${dayLabel(period.end)}`;
}

/** "the fire of Fri Nov 27 09:00 CET, covering Thu Nov 26": which fire a command took. */
export function fireWords(fireAt: Date, zone: string, covers: Period): string {
  return `${fireAtWords(fireAt, zone)}, covering ${daysLabel(covers)}`;
}

/** "the fire of Fri Nov 27 09:00 CET", in the team's zone. */
export function fireAtWords(fireAt: Date, zone: string): string {
  const local = DateTime.fromJSDate(fireAt, { zone });
  const day = dayLabel(local.toISODate() ?? "");
  return `the fire of ${day} ${local.toFormat("HH:mm")} ${zoneAbbreviations(zone)(fireAt)}`;
}

/**
 * The zone's name at an instant: "CET", "EST" where some English locale has a name for its
 * offset, else "GMT+9". Each locale's formatter is made once for all of a team's fires.
 */
export function zoneAbbreviations(zone: string): (at: Date) => string {
  const formatters = new Map<string, Intl.DateTimeFormat>();
  const formatter = (locale: string) => {
    let format = formatters.get(locale);
    if (!format) {
      format = new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: "short" });
      formatters.set(locale, format);
    }
    return format;
  };
  return (at) => {
    let fallback = "";
    // en-US names American zones, en-GB European ones, en-AU and en-IN their own.
    for (const locale of ["en-US", "en-GB", "en-AU", "en-IN"]) {
      const parts = formatter(locale).formatToParts(at);
      const name = parts.find((p) => p.type === "timeZoneName")?.value ?? "";
      if (!/^GMT[+-−]/.test(name) && name !== "") return name;
      fallback ||= name;
    }
    return fallback;
  };
}
