import type { Delivery } from "./ledger.js";

/**
 * How long one send may take, by default: a destination claimed for sending this recently is a
 * send in flight (the daemon's, or a `run` beside it), never taken for a crashed one; older, its
 * sender is gone and what it posted has landed, so another process may take it over.
 */
export const SEND_TIMEOUT_MS = 5 * 60_000;

/** The instant a due decision is made at, and how long a claim stays its sender's. */
export interface DueAt {
  now: Date;
  sendTimeoutMs: number;
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

/** Whether a send of this delivery is in flight now: claimed less than the send timeout ago. */
export function sendingElsewhere(delivery: Delivery, at: DueAt): boolean {
  // Rows from before claims were recorded: their attempt began when they were last written.
  const claimed = (delivery.claimedAt ?? delivery.updatedAt).getTime();
  return delivery.state === "sending" && at.now.getTime() - claimed < at.sendTimeoutMs;
}
