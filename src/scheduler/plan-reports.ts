import { setImmediate as yieldToLoop } from "node:timers/promises";
import type { Logger } from "../logger.js";
import type { DaemonMetrics } from "../ops/metrics.js";
import type { DueRetry } from "../state/ledger.js";
import type { SkippedFire } from "../timetable/plan-catch-up.js";
import type { DaemonLedger } from "./daemon-types.js";
import { metricLabels, type ScheduledJob } from "./jobs.js";

// What the scheduler says about its plans and gives up on, beside it so its loop reads as the
// story: skipped missed fires, a job's first next fire, and retries whose job is gone.

/** Where the scheduler reports. */
export interface Reporting {
  logger: Logger;
  metrics: DaemonMetrics | null;
}

/** The due retries grouped by slot, in the order the ledger gave them. */
export function bySlot(retries: readonly DueRetry[]): DueRetry[][] {
  const groups = new Map<string, DueRetry[]>();
  for (const retry of retries) {
    groups.set(retry.slot.key, [...(groups.get(retry.slot.key) ?? []), retry]);
  }
  return [...groups.values()];
}

/** How many retries are given up between two turns of the event loop. */
const GIVE_UP_BATCH = 200;
/** How many of the slots given up the summary line names. */
const SLOTS_NAMED = 5;

/**
 * Fails the retries for good, saying why, in the ledger, the metrics and one log line. A
 * daemon started on a ledger with thousands of stale retries (a job removed while they
 * waited) gives them up in batches, handing the event loop back between them so /healthz and
 * the deliveries in flight keep going, and logs one summary instead of a line per delivery.
 */
export async function giveUp(
  retries: readonly DueRetry[],
  reason: string,
  { ledger, logger, metrics }: Reporting & { ledger: Pick<DaemonLedger, "markFailed"> },
): Promise<void> {
  const slots = new Set<string>();
  let given = 0;
  for (let start = 0; start < retries.length; start += GIVE_UP_BATCH) {
    if (start > 0) await yieldToLoop();
    for (const { slot, destination, lastError, claim } of retries.slice(
      start,
      start + GIVE_UP_BATCH,
    )) {
      // Fenced by the token read: a `run` that claimed it meanwhile keeps its send.
      const written = await ledger.markFailed(
        slot.key,
        destination,
        `${lastError ?? "failed"} (given up: ${reason})`,
        null,
        claim,
      );
      if (!written) continue;
      given++;
      slots.add(slot.key);
      metrics?.delivery(metricLabels(slot.team, slot.kind, slot.job), destination, "gave_up");
    }
  }
  if (given === 0) return;
  const named = [...slots].slice(0, SLOTS_NAMED);
  logger.error(
    { deliveries: given, slots: slots.size, firstSlots: named },
    given === 1 ? `delivery given up: ${reason}` : `${given} deliveries given up: ${reason}`,
  );
}

/** A missed fire that is not run, in the log and the metrics. */
export function logSkipped(
  job: ScheduledJob,
  { fire, key, reason }: SkippedFire,
  now: Date,
  { logger, metrics }: Reporting,
): void {
  logger.warn(
    { job: job.id, slot: key, fireAt: fire.toISOString(), reason },
    reason === "superseded"
      ? "missed slot skipped: a later fire of the same job is delivered instead"
      : "missed slot skipped: it is older than the job's catch_up window",
  );
  metrics?.slotFinished(metricLabels(job.team.name, job.kind, job.name), "skipped", now);
}

/** The job's next fire (as its plan found it), logged when it is first planned. */
export function logNextFire(job: ScheduledJob, next: Date | undefined, logger: Logger): void {
  logger.info(
    { job: job.id, schedule: job.schedule, zone: job.zone, nextFire: next?.toISOString() ?? null },
    "scheduled",
  );
}
