// When a failed delivery is tried again: after 1, 5, 15 and 60 minutes, then hourly, until the
// slot's deadline — the next slot of the same job, or 24 h after the fire, whichever is sooner.
// Past it the delivery is failed for good: a digest that arrives after the next one only confuses.

const MINUTE_MS = 60_000;

/** The waits before the 2nd, 3rd… attempt; the last one repeats. */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [1, 5, 15, 60].map((m) => m * MINUTE_MS);

/** A slot is never retried longer than this after its fire. */
export const MAX_RETRY_SPAN_MS = 24 * 60 * MINUTE_MS;

/**
 * When the next attempt is due after `attempts` failed ones (the last at `failedAt`), no
 * sooner than `notBefore` when given, or null when it would fall at or after `deadline`: a
 * retry that could only start once the slot's window closed is none.
 */
export function nextAttemptAt(
  attempts: number,
  failedAt: Date,
  deadline: Date,
  delaysMs: readonly number[] = DEFAULT_RETRY_DELAYS_MS,
  notBefore?: Date,
): Date | null {
  const delay = delaysMs[Math.min(Math.max(attempts, 1), delaysMs.length) - 1];
  if (delay === undefined) return null;
  const at = Math.max(failedAt.getTime() + delay, notBefore?.getTime() ?? 0);
  return at < deadline.getTime() ? new Date(at) : null;
}

/** No slot bounds a delivery's retries: the latest date there is. */
const NO_DEADLINE = new Date(8.64e15);

/**
 * The retry schedule of a delivery no slot run bounds (`run`, `alerts`, an /insights digest):
 * left open for the daemon, due the first delay after it failed, and, as every retry schedule
 * (RetryAt), no sooner than the sender's `notBefore`. The daemon's slot runs use slotRetryAt.
 */
export function firstRetryAt(
  clock: () => Date,
): (attempts: number, notBefore?: Date) => Date | null {
  return (_attempts, notBefore) =>
    nextAttemptAt(1, clock(), NO_DEADLINE, DEFAULT_RETRY_DELAYS_MS, notBefore);
}
