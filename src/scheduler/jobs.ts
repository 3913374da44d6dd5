import type { AlertConfig, DigestConfig, Team } from "../config/types.js";
import { alertSlot } from "../pipeline/alert/alert-slot.js";
import { digestSlot } from "../pipeline/digest/digest-slot.js";
import type { SlotKind } from "../state/ledger.js";

// What the daemon schedules: one job per digest and per alert of each team, each with its cron in the team's
// zone and a way to name the slot a fire delivers. A union on `kind`, so alerts join the list
// as another member without the scheduler changing.

interface JobBase {
  /** Unique within a config: `checkout/digest/daily`. */
  id: string;
  kind: SlotKind;
  team: Team;
  /** The digest's (or alert's) name, as the ledger records it. */
  name: string;
  schedule: string;
  /** The team's IANA zone. */
  zone: string;
  catchUpMs: number;
}

export interface ScheduledDigest extends JobBase {
  kind: "digest";
  digest: DigestConfig;
}

export interface ScheduledAlert extends JobBase {
  kind: "alert";
  alert: AlertConfig;
}

export type ScheduledJob = ScheduledDigest | ScheduledAlert;

/** Every scheduled job of the config's teams, in config order: a team's digests, then its alerts. */
export function listJobs(teams: readonly Team[]): ScheduledJob[] {
  return teams.flatMap((team) => [
    ...team.digests.map(
      (digest): ScheduledDigest => ({
        id: jobId(team.name, "digest", digest.name),
        kind: "digest",
        team,
        name: digest.name,
        schedule: digest.schedule,
        zone: team.timezone,
        catchUpMs: digest.catchUpMs,
        digest,
      }),
    ),
    ...team.alerts.map(
      (alert): ScheduledAlert => ({
        id: jobId(team.name, "alert", alert.name),
        kind: "alert",
        team,
        name: alert.name,
        schedule: alert.schedule,
        zone: team.timezone,
        catchUpMs: alert.catchUpMs,
        alert,
      }),
    ),
  ]);
}

/**
 * The labels of a job's metrics, one scheme for digests and alerts: `kind` keeps an alert and
 * a digest of one team that share a name in separate series.
 */
export function metricLabels(
  team: string,
  kind: SlotKind,
  name: string,
): { team: string; kind: SlotKind; job: string } {
  return { team, kind, job: name };
}

/** The id of the job that delivers a recorded slot (for retries of a slot read from the ledger). */
export function jobId(team: string, kind: SlotKind, name: string): string {
  return `${team}/${kind}/${name}`;
}

/** The slot key a fire of the job delivers: team, job and the period the fire covers. */
export function keyForFire(job: ScheduledJob, fire: Date): string {
  return job.kind === "digest"
    ? digestSlot({ team: job.team, digest: job.digest, fireAt: fire }).key
    : alertSlot({ team: job.team, alert: job.alert, fireAt: fire }).key;
}
