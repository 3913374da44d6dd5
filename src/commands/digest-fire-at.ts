import { DateTime } from "luxon";
import type { DigestConfig, Team } from "../config/types.js";
import { UsageError } from "../errors.js";
import { digestSlot, latestDigestFire } from "../pipeline/digest/digest-slot.js";
import { formatPeriod } from "../render/format.js";
import { nextFires } from "../timetable/cron-fires.js";

// Apart from the other commands' shared helpers (command-context.ts), since it needs the digest
// path (run-digest.js and every destination's renderer): `export` and the rest do not load it.

/**
 * The fire a digest command reports: the schedule's latest fire at or before `at` (default
 * now), which is the daemon's slot with the daemon's key, so a `run` on a Saturday is Friday's
 * fire and Monday's still covers Fri–Sun once. A date-only `at` is that day's (first) fire in
 * the team's zone, or the latest before it on a day with none. A period that has not ended in
 * the team's zone is refused: its figures would be partial and its silent projects false alarms.
 */
export function digestFireAt(
  at: Date | string | undefined,
  team: Team,
  digest: DigestConfig,
  now: Date = new Date(),
): Date {
  const asked = at ?? now;
  const fireAt =
    typeof asked === "string"
      ? fireOnDay(asked, team, digest)
      : latestDigestFire(team, digest, asked);
  const given = at === undefined ? "now" : `--at ${typeof at === "string" ? at : at.toISOString()}`;
  if (fireAt === null) {
    throw new UsageError(
      `${team.name}/${digest.name}: "${digest.schedule}" has no fire in the year before ${given} — give an --at after one of its fires, or use export for a range of days`,
    );
  }
  const current = digestSlot({ team, digest, fireAt }).periods.current;
  const ends = DateTime.fromISO(current.end, { zone: team.timezone }).plus({ days: 1 });
  if (now.getTime() < ends.toMillis()) {
    throw new UsageError(
      `the period ${formatPeriod(current)} (${given}) has not ended in ${team.timezone} — give an --at whose period is over, or leave it out for the latest`,
    );
  }
  return fireAt;
}

/** The schedule's first fire on a local day, else its latest fire before that day. */
function fireOnDay(day: string, team: Team, digest: DigestConfig): Date | null {
  const zone = team.timezone;
  const start = DateTime.fromISO(day, { zone }).startOf("day");
  const [fire] = nextFires(digest.schedule, zone, new Date(start.toMillis() - 1), 1);
  if (fire && DateTime.fromJSDate(fire, { zone }).toISODate() === day) return fire;
  return latestDigestFire(team, digest, new Date(start.toMillis() - 1));
}
