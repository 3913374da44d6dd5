import type { DigestConfig, Team } from "../../config/types.js";
import { localDateOf, startOfLocalDay } from "../../periods/calendar-date.js";
import { periodsForFire } from "../../periods/periods-for-fire.js";
import type { PeriodPair } from "../../periods/types.js";
import { fireWords } from "../../render/fire-words.js";
import { slotKey } from "../../state/slot-key.js";
import { latestFireAtOrBefore, previousFire } from "../../timetable/cron-fires.js";

// Which days a digest's fire reports and the slot that names them: what run-digest.ts reports,
// and all that check-config, `run`'s ledger check and the daemon's schedule need of a digest,
// without loading its renderers and deliveries.

export interface DigestJob {
  team: Team;
  digest: DigestConfig;
  /** The scheduled instant this run is for (not the wall clock: a late run reports its slot's period). */
  fireAt: Date;
}

/** A digest's slot: the key that names it in the ledger and the periods it reports. */
export interface DigestSlot {
  key: string;
  periods: PeriodPair;
}

/** The periods a digest fired at `fireAt` covers, and the slot key that names it. */
export function digestSlot(job: DigestJob): DigestSlot {
  const { team, digest, fireAt } = job;
  const periods = periodsForFire({
    fireAt,
    timezone: team.timezone,
    kind: digest.period,
    compareTo: digest.compareTo,
    weekStartsOn: team.weekStartsOn,
    previousFireAt: digest.period === "since_previous_run" ? lastFireOnEarlierDay(job) : null,
  });
  return { key: slotKey(team.name, "digest", digest.name, periods.current), periods };
}

/** How far back a command looks for the fire it reports: past any yearly schedule. */
const FIRE_LOOKBACK_MS = 400 * 86_400_000;

/**
 * The digest's latest scheduled fire at or before `at`: the slot a command (`run`, `preview`,
 * `/insights digest`) reports, the same one the daemon delivers, so that a schedule plus any
 * number of commands reports each day once. Null when the schedule has not fired in a year.
 */
export function latestDigestFire(team: Team, digest: DigestConfig, at: Date): Date | null {
  const notBefore = new Date(at.getTime() - FIRE_LOOKBACK_MS);
  return latestFireAtOrBefore(digest.schedule, team.timezone, at, notBefore);
}

/** "the fire of Fri Nov 27 09:00 CET, covering Thu Nov 26": which slot a command took. */
export function describeDigestFire(job: DigestJob): string {
  return fireWords(job.fireAt, job.team.timezone, digestSlot(job).periods.current);
}

/**
 * The schedule's last fire on a day before the fire's own day: what `since_previous_run`
 * counts from. Taken by day, not by instant, so a manual run at 10:00 covers what the 09:00
 * fire did, and a second fire on the same day covers the same days (the same slot).
 */
function lastFireOnEarlierDay({ team, digest, fireAt }: DigestJob): Date | null {
  const dayStart = startOfLocalDay(localDateOf(fireAt, team.timezone), team.timezone);
  return previousFire(digest.schedule, team.timezone, dayStart);
}
