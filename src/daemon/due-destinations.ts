import type { DigestLedger } from "../run-digest.js";
import { type DueAt, isDue, sendingElsewhere } from "../state/delivery-due.js";
import type { Ledger } from "../state/ledger.js";

/**
 * The ledger as one daemon run of a slot sees it: a destination whose failure is waiting for
 * a later retry, was given up for good, or is being sent by another process reads as `later`,
 * so the run leaves it alone. Each
 * destination then keeps its own backoff, and a run for one destination's retry never resends
 * — or retries early — the others.
 */
export function dueDestinationsOnly(
  ledger: Pick<Ledger, "recordSlot" | "getSlot" | "beginAttempt" | "markSent" | "markFailed">,
  at: DueAt,
): DigestLedger {
  return {
    recordSlot: (slot) => ledger.recordSlot(slot),
    beginAttempt: (key, destination) => {
      const delivery = ledger.getSlot(key)?.deliveries.find((d) => d.destination === destination);
      if (delivery && delivery.state !== "sent" && !isDue(delivery, at)) {
        return { state: "later", attempts: delivery.attempts };
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
  at: DueAt,
): boolean {
  const slot = ledger.getSlot(key);
  return !slot || slot.deliveries.some((d) => isDue(d, at));
}

/** Whether another process is sending one of the slot's deliveries now. */
export function slotSendingElsewhere(
  ledger: Pick<Ledger, "getSlot">,
  key: string,
  at: DueAt,
): boolean {
  return ledger.getSlot(key)?.deliveries.some((d) => sendingElsewhere(d, at)) ?? false;
}
