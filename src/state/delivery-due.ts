import type { Delivery } from "./ledger.js";

/**
 * A `sending` row that another process (a `run` from the CLI, or the daemon) wrote this recently
 * is its send in flight; older, that process died mid-send, and the row is ours to finish.
 */
export const IN_FLIGHT_ELSEWHERE_MS = 5 * 60_000;

/** The instants a due decision needs. */
export interface DueAt {
  now: Date;
  /**
   * When this daemon started. A `sending` row written before it was left by a process that
   * crashed; one written since, while the daemon is not running its slot, is another process's.
   */
  startedAt: Date;
}

/** Whether a run now should attempt this delivery: open, interrupted, or its retry is due. */
export function isDue(delivery: Delivery, at: DueAt): boolean {
  switch (delivery.state) {
    case "pending":
      return true;
    case "sending":
      return !sendingElsewhere(delivery, at);
    case "failed":
      return (
        delivery.nextAttemptAt !== null && delivery.nextAttemptAt.getTime() <= at.now.getTime()
      );
    case "sent":
      return false;
  }
}

/** Whether another process is sending this delivery now (see IN_FLIGHT_ELSEWHERE_MS). */
export function sendingElsewhere(delivery: Delivery, at: DueAt): boolean {
  const written = delivery.updatedAt.getTime();
  return (
    delivery.state === "sending" &&
    written >= at.startedAt.getTime() &&
    at.now.getTime() - written < IN_FLIGHT_ELSEWHERE_MS
  );
}
