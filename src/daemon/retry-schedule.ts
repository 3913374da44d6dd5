import { firesBetween } from "../schedule/cron-fires.js";
import { MAX_RETRY_SPAN_MS } from "../schedule/retry-delays.js";
import { keyForFire, type ScheduledJob } from "./jobs.js";

/** The first later fire of the job that starts another slot, or 24 h after `fire`. */
export function slotDeadline(job: ScheduledJob, fire: Date): Date {
  const limit = new Date(fire.getTime() + MAX_RETRY_SPAN_MS);
  const key = keyForFire(job, fire);
  // Fires that cover the same period are the same slot (a "*/5" daily digest): not a deadline.
  const next = firesBetween(job.schedule, job.zone, fire, limit).find(
    (later) => keyForFire(job, later) !== key,
  );
  return next ?? limit;
}
