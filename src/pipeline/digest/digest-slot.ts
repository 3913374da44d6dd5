import type { DigestConfig, Team } from "../../config/types.js";
import { localDateOf, startOfLocalDay } from "../../periods/calendar-date.js";
import { periodsForFire } from "../../periods/periods-for-fire.js";
import type { PeriodPair } from "../../periods/types.js";
import { previousFire } from "../../schedule/cron-fires.js";
import { slotKey } from "../../state/slot-key.js";

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

/**
 * The schedule's last fire on a day before the fire's own day: what `since_previous_run`
 * counts from. Taken by day, not by instant, so a manual run at 10:00 covers what the 09:00
 * fire did, and a second fire on the same day covers the same days (the same slot).
 */
function lastFireOnEarlierDay({ team, digest, fireAt }: DigestJob): Date | null {
  const dayStart = startOfLocalDay(localDateOf(fireAt, team.timezone), team.timezone);
  return previousFire(digest.schedule, team.timezone, dayStart);
}
