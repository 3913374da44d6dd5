import type { Logger } from "../logger.js";
import { keyForFire, type ScheduledJob } from "./jobs.js";

// Retries of slots whose run failed before anything was recorded (an alert evaluation whose
// insights could not be fetched): the ledger holds no row to retry from, so the daemon keeps
// them, on the delivery backoff, until the slot's deadline. A restart finds such a fire again
// through catch-up, since its slot is not delivered.

export interface UnrecordedSlot {
  job: ScheduledJob;
  fire: Date;
  key: string;
}

export interface UnrecordedRetries {
  /** A run of the slot failed unrecorded; `retryAt(n)` is when attempt n+1 may go, or null. */
  failed(slot: UnrecordedSlot, retryAt: (attempts: number) => Date | null): Promise<void>;
  /**
   * The slots due again at `now` whose job is not running (taken off the list); those whose job
   * left the config or now covers another period are dropped.
   */
  takeDue(
    now: Date,
    jobs: readonly ScheduledJob[],
    isRunning: (jobId: string) => boolean,
  ): UnrecordedSlot[];
}

export function createUnrecordedRetries(
  logger: Logger,
  isRecorded: (key: string) => Promise<boolean>,
): UnrecordedRetries {
  // Per job, the slot to try again and when; per slot key, how many runs of it failed so.
  const pending = new Map<string, { fire: Date; key: string; at: number }>();
  const attempts = new Map<string, number>();

  return {
    async failed({ job, fire, key }, retryAt) {
      // A key that has since been recorded needs no count any more.
      for (const counted of [...attempts.keys()]) {
        if (await isRecorded(counted)) attempts.delete(counted);
      }
      const made = (attempts.get(key) ?? 0) + 1;
      const at = retryAt(made);
      if (at === null) {
        attempts.delete(key);
        logger.error(
          { job: job.id, slot: key, attempts: made },
          "slot given up: it failed before it could be recorded, and no retry is left before its deadline",
        );
        return;
      }
      attempts.set(key, made);
      pending.set(job.id, { fire, key, at: at.getTime() });
    },
    takeDue(now, jobs, isRunning) {
      const due: UnrecordedSlot[] = [];
      for (const [id, retry] of pending) {
        const job = jobs.find((j) => j.id === id);
        if (!job || keyForFire(job, retry.fire) !== retry.key) {
          pending.delete(id); // the config no longer has this job, or it covers another period
          continue;
        }
        if (retry.at > now.getTime() || isRunning(id)) continue;
        pending.delete(id);
        due.push({ job, fire: retry.fire, key: retry.key });
      }
      return due;
    },
  };
}
