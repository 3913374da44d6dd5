import type { RetryAt } from "../deliver/deliver-all.js";
import type { Logger } from "../logger.js";
import type { DigestLedger } from "../pipeline/digest/digest-types.js";
import { nextFires } from "../timetable/cron-fires.js";
import { MAX_RETRY_SPAN_MS, nextAttemptAt } from "../timetable/retry-delays.js";
import type { ScheduledAlert, ScheduledJob } from "./jobs.js";

// When the incident step runs (issue 38 item 3): after a tick's alert evaluations complete.
// The scheduler notes each fire instant it launched alerts for; every tick, an instant whose
// alerts no longer run here is handed to the step, which answers "waiting" while one of them is
// not settled in the ledger (another replica still runs it) and "done" once it looked. The
// step itself (`pipeline/incident/`) is handed in; nothing here knows what an incident is.

/** What the incident step is to the scheduler: handed in by the daemon (null: incidents off). */
export interface IncidentStep {
  /** The alerts due at `fire` have run here: form, record and deliver what they make. */
  afterFire(
    fire: Date,
    alerts: readonly ScheduledAlert[],
    context: IncidentContext,
  ): Promise<"waiting" | "done">;
  /** A failed delivery of an incident's slot is due again. */
  resend(key: string, context: IncidentContext): Promise<void>;
}

export interface IncidentContext {
  /** The ledger, narrowed to the destinations due now (claimed as any slot's). */
  ledger: DigestLedger;
  logger: Logger;
  retryAt: RetryAt;
}

export interface IncidentFires {
  /** An alert run for `fire` was launched. */
  noted(job: ScheduledJob, fire: Date): void;
  /** A failed incident delivery is due again. */
  retry(key: string): void;
  /** Runs the step for each instant whose alerts ended here; one pass at a time. */
  run(
    now: Date,
    jobs: readonly ScheduledJob[],
    isRunning: (jobId: string) => boolean,
  ): Promise<void>;
}

// An instant still waiting after this long is given up (a replica's evaluation that never
// records is retried by that replica, within its own deadline).
const WAIT_MS = MAX_RETRY_SPAN_MS;

export function createIncidentFires(
  step: IncidentStep,
  options: {
    logger: Logger;
    clock: () => Date;
    retryDelaysMs: readonly number[];
    ledger: (retryAt: RetryAt) => DigestLedger;
  },
): IncidentFires {
  const fires = new Map<number, Date>();
  const retries = new Set<string>();

  const contextFor = (from: Date): IncidentContext => {
    const deadline = new Date(from.getTime() + WAIT_MS);
    const retryAt: RetryAt = (attempts, notBefore) =>
      nextAttemptAt(attempts, options.clock(), deadline, options.retryDelaysMs, notBefore);
    return { ledger: options.ledger(retryAt), logger: options.logger, retryAt };
  };

  return {
    noted(job, fire) {
      if (job.kind === "alert") fires.set(fire.getTime(), fire);
    },
    retry: (key) => void retries.add(key),
    async run(now, jobs, isRunning) {
      for (const key of [...retries]) {
        retries.delete(key);
        await step.resend(key, contextFor(now));
      }
      for (const [at, fire] of [...fires]) {
        if (now.getTime() - at > WAIT_MS) {
          fires.delete(at);
          options.logger.warn(
            { fireAt: fire.toISOString() },
            "incident step given up: an alert due then never settled in the ledger",
          );
          continue;
        }
        const alerts = jobs.filter(
          (job): job is ScheduledAlert => job.kind === "alert" && firesAt(job, fire),
        );
        if (alerts.some((job) => isRunning(job.id))) continue;
        if ((await step.afterFire(fire, alerts, contextFor(fire))) === "done") fires.delete(at);
      }
    },
  };
}

function firesAt(job: ScheduledAlert, fire: Date): boolean {
  const [next] = nextFires(job.schedule, job.zone, new Date(fire.getTime() - 1), 1);
  return next?.getTime() === fire.getTime();
}
