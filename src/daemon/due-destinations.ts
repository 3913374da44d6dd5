import type { DigestLedger } from "../run-digest.js";
import type { Delivery, Ledger } from "../state/ledger.js";

/** Whether a run now should attempt this delivery: open, interrupted, or its retry is due. */
export function isDue(delivery: Delivery, now: Date): boolean {
  switch (delivery.state) {
    case "pending":
    case "sending":
      return true;
    case "failed":
      return delivery.nextAttemptAt !== null && delivery.nextAttemptAt.getTime() <= now.getTime();
    case "sent":
      return false;
  }
}

/**
 * The ledger as one daemon run of a slot sees it: a destination whose failure is waiting for
 * a later retry (or was given up for good) reads as done, so the run leaves it alone. Each
 * destination then keeps its own backoff, and a run for one destination's retry never resends
 * — or retries early — the others.
 */
export function dueDestinationsOnly(
  ledger: Pick<Ledger, "recordSlot" | "getSlot" | "beginAttempt" | "markSent" | "markFailed">,
  now: Date,
): DigestLedger {
  return {
    recordSlot: (slot) => ledger.recordSlot(slot),
    beginAttempt: (key, destination) => {
      const delivery = ledger.getSlot(key)?.deliveries.find((d) => d.destination === destination);
      // deliverAll sends nothing for "sent"; the row itself is left exactly as it was.
      if (delivery?.state === "failed" && !isDue(delivery, now)) {
        return { state: "sent", attempts: delivery.attempts };
      }
      return ledger.beginAttempt(key, destination);
    },
    markSent: (key, destination, receipt) => ledger.markSent(key, destination, receipt),
    markFailed: (key, destination, error, next) => ledger.markFailed(key, destination, error, next),
  };
}

/**
 * Whether a run of the slot now would attempt anything: it is new, or a destination is
 * pending, interrupted mid-send, or due for its retry. A slot whose failures all wait for a
 * later retry is left to that retry rather than fetched and rendered for nothing.
 */
export function hasDueDestination(
  ledger: Pick<Ledger, "getSlot">,
  key: string,
  now: Date,
): boolean {
  const slot = ledger.getSlot(key);
  return !slot || slot.deliveries.some((d) => isDue(d, now));
}
