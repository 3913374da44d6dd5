import type { DigestConfig, Team } from "../config/types.js";
import { digestSlot } from "../run-digest.js";
import type { SlotKind } from "../state/ledger.js";

// What the daemon schedules: one job per digest of each team, each with its cron in the team's
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

export type ScheduledJob = ScheduledDigest;

/** Every scheduled job of the config's teams, in config order. */
export function listJobs(teams: readonly Team[]): ScheduledJob[] {
  return teams.flatMap((team) =>
    team.digests.map(
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
  );
}

/** Said wherever alerts are configured: they are validated, but nothing evaluates them yet. */
export const ALERTS_NOT_EVALUATED =
  "alerts are validated but not evaluated yet: this version schedules digests only";

/** The configured alerts, as job ids (`checkout/alert/flaky-rate`). */
export function configuredAlerts(teams: readonly Team[]): string[] {
  return teams.flatMap((team) => team.alerts.map((alert) => jobId(team.name, "alert", alert.name)));
}

/** The id of the job that delivers a recorded slot (for retries of a slot read from the ledger). */
export function jobId(team: string, kind: SlotKind, name: string): string {
  return `${team}/${kind}/${name}`;
}

/** The slot key a fire of the job delivers: team, job and the period the fire covers. */
export function keyForFire(job: ScheduledJob, fire: Date): string {
  return digestSlot({ team: job.team, digest: job.digest, fireAt: fire }).key;
}
