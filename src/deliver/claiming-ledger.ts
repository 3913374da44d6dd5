import type { ClaimOptions, DeliveryLog, SlotLog } from "../state/ledger.js";
import type { DeliveryLedger } from "./deliver-all.js";

/**
 * The ledger as one run's deliveries see it: each destination is claimed at the moment of
 * sending, by the rules of `options` (the daemon takes what is due, `run` any open destination,
 * `run --force` anything). A destination not won reads as `sent` or `later`, and is left alone.
 */
/** What a claiming view is made of: the slot log (to record the slot) and the delivery log. */
export type ClaimingLedgerBase = Pick<SlotLog, "recordSlot"> & Omit<DeliveryLog, "dueRetries">;

export function claimingLedger(
  ledger: ClaimingLedgerBase,
  options: ClaimOptions & {
    /** A send left stale by another process (it died or stalled) was taken over. */
    onTakenOver?: (key: string, destination: string) => void;
    /**
     * Whether the ledger may not know of an earlier delivery of these slots (see
     * `Attempt.lookFirst`); default true: a one-off command looks before it posts.
     */
    lookFirst?: boolean;
  },
): DeliveryLedger & Pick<SlotLog, "recordSlot"> {
  return {
    recordSlot: (slot) => ledger.recordSlot(slot),
    beginAttempt: async (key, destination) => {
      // Read before the claim, so the deadline falls no later than the one others go by.
      const sendBy = new Date(Date.now() + options.sendTimeoutMs);
      const claim = await ledger.claimDelivery(key, destination, options);
      if (!claim.claimed) {
        const sent = claim.delivery?.state === "sent";
        return { state: sent ? "sent" : "later", attempts: claim.delivery?.attempts ?? 0 };
      }
      const { state, attempts } = claim.before;
      if (state === "sending") options.onTakenOver?.(key, destination);
      // A sent destination claimed again is a deliberate resend: sent anew.
      return {
        state: state === "sent" ? "new" : state,
        attempts,
        claim: claim.token,
        resend: options.take === "any",
        lookFirst: options.lookFirst ?? true,
        sendBy,
      };
    },
    markSent: (key, destination, receipt, token) =>
      ledger.markSent(key, destination, receipt, token),
    markFailed: (key, destination, error, next, token) =>
      ledger.markFailed(key, destination, error, next, token),
    partsDone: (key, destination) => ledger.partsDone(key, destination),
    recordPart: (key, destination, part, ref) => ledger.recordPart(key, destination, part, ref),
    forgetParts: (key, destination) => ledger.forgetParts(key, destination),
    holdsClaim: (key, destination, claim) => ledger.holdsClaim(key, destination, claim),
  };
}
