import { DateTime } from "luxon";
import type { DigestConfig, Team } from "../config/types.js";
import { UsageError } from "../errors.js";
import { digestSlot } from "../pipeline/digest/digest-slot.js";
import { formatPeriod } from "../render/format.js";
import { nextFires } from "../schedule/cron-fires.js";

// Apart from the other commands' shared helpers (command-context.ts), since it needs the digest
// path (run-digest.js and every destination's renderer): `export` and the rest do not load it.

/**
 * The fire a digest command reports: now, the instant given, or for a date-only `--at` that
 * day's (first) fire in the team's zone. A period that has not ended in the team's zone is
 * refused: its figures would be partial and its silent projects false alarms.
 */
export function digestFireAt(
  at: Date | string | undefined,
  team: Team,
  digest: DigestConfig,
  now: Date = new Date(),
): Date {
  if (at === undefined) return now;
  const fireAt = typeof at === "string" ? fireOnDay(at, team.timezone, digest.schedule) : at;
  const current = digestSlot({ team, digest, fireAt }).periods.current;
  const ends = DateTime.fromISO(current.end, { zone: team.timezone }).plus({ days: 1 });
  if (now.getTime() < ends.toMillis()) {
    throw new UsageError(
      `the period ${formatPeriod(current)} (--at ${typeof at === "string" ? at : at.toISOString()}) has not ended in ${team.timezone} — give an --at whose period is over, or leave it out for the latest`,
    );
  }
  return fireAt;
}

/** The schedule's first fire on a local day, else that day's midnight. */
function fireOnDay(day: string, zone: string, schedule: string): Date {
  const start = DateTime.fromISO(day, { zone }).startOf("day");
  const [fire] = nextFires(schedule, zone, new Date(start.toMillis() - 1), 1);
  if (fire && DateTime.fromJSDate(fire, { zone }).toISODate() === day) return fire;
  return start.toJSDate();
}
