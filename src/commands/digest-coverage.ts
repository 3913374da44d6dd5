import type { DigestConfig, Team } from "../config/types.js";
import { datesIn, weekdayOf } from "../periods/calendar-date.js";
import { digestSlot } from "../pipeline/digest/digest-slot.js";
import { daysLabel } from "../render/fire-words.js";
import { nextFires } from "../timetable/cron-fires.js";

// Which days a digest's fires will report, for check-config: the reader sees "Mon covers
// Fri – Sun" before trusting a schedule, and is warned when some day is never reported
// (README's own "0 9 * * 1-5" with previous_day skipped Friday and Saturday).

/** Fires looked at for gaps: two weeks of a weekday schedule, past any weekly pattern. */
const FIRES_CHECKED = 15;
const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

/** What each of the given fires reports: "Fri Oct 23 – Sun Oct 25", "Mon Oct 26". */
export function coveredDays(team: Team, digest: DigestConfig, fires: readonly Date[]): string[] {
  return fires.map((fireAt) => {
    return daysLabel(digestSlot({ team, digest, fireAt }).periods.current);
  });
}

/**
 * A warning when the digest's next fires leave days between them that none reports, naming
 * those weekdays and the fix; null when every day is covered.
 */
export function coverageGap(team: Team, digest: DigestConfig, now: Date): string | null {
  const fires = nextFires(digest.schedule, team.timezone, now, FIRES_CHECKED);
  if (fires.length < 2) return null;
  const covered = new Set<string>();
  for (const fireAt of fires) {
    for (const day of datesIn(digestSlot({ team, digest, fireAt }).periods.current)) {
      covered.add(day);
    }
  }
  const days = [...covered].sort();
  const first = days[0];
  const last = days.at(-1);
  if (first === undefined || last === undefined) return null;
  const missing = datesIn({ start: first, end: last }).filter((d) => !covered.has(d));
  if (missing.length === 0) return null;
  const weekdays = [...new Set(missing.map((d) => weekdayOf(d)))].sort((a, b) => a - b);
  const names = weekdays.map((w) => WEEKDAYS[w - 1] ?? String(w)).join(", ");
  const fix =
    digest.period === "previous_day"
      ? "use period: since_previous_run to report every day since the previous fire"
      : "use period: since_previous_run, or a schedule that fires after each period";
  return `warning: ${team.name}/${digest.name} (${digest.period}, "${digest.schedule}") never reports ${names}: no fire covers those days — ${fix}`;
}
