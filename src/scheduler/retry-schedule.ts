import type { RetryAt } from "../deliver/deliver-all.js";
import { addDays, localDateOf, startOfLocalDay } from "../periods/calendar-date.js";
import { nextFires } from "../timetable/cron-fires.js";
import { MAX_RETRY_SPAN_MS, nextAttemptAt } from "../timetable/retry-delays.js";
import { keyForFire, type ScheduledJob } from "./jobs.js";

/**
 * The first later fire of the job that starts another slot, or 24 h after `fire`. A slot is
 * named by the whole local days its fire covers, so the key can change only where a local day
 * begins: the first fire of each later day is looked at, never every fire. (Walking every fire
 * of an every-minute schedule, each one's period computed in the zone, blocked the daemon for
 * seconds on each failed delivery, holding back every other delivery in flight.)
 */
export function slotDeadline(job: ScheduledJob, fire: Date): Date {
  const limit = new Date(fire.getTime() + MAX_RETRY_SPAN_MS);
  const key = keyForFire(job, fire);
  for (let day = localDateOf(fire, job.zone); ; ) {
    const nextDayStart = startOfLocalDay(addDays(day, 1), job.zone);
    const [next] = nextFires(job.schedule, job.zone, new Date(nextDayStart.getTime() - 1), 1);
    if (!next || next.getTime() > limit.getTime()) return limit;
    if (keyForFire(job, next) !== key) return next;
    day = localDateOf(next, job.zone);
  }
}

/**
 * When a failed delivery of the slot fired at `fire` goes again: after the retry delays, no
 * sooner than the sender asks (a send that may have landed is looked for only once
 * send_timeout has passed), and never at or past the slot's deadline: a retry that could only
 * start after it is none, and the delivery is given up. The deadline is worked out on the
 * first failure, when it is needed.
 */
export function slotRetryAt(
  job: ScheduledJob,
  fire: Date,
  options: { clock: () => Date; delaysMs: readonly number[]; onScheduled?: (at: Date) => void },
): RetryAt {
  let deadline: Date | undefined;
  return (attempts, notBefore) => {
    deadline ??= slotDeadline(job, fire);
    const at = nextAttemptAt(attempts, options.clock(), deadline, options.delaysMs, notBefore);
    if (at) options.onScheduled?.(at);
    return at;
  };
}
