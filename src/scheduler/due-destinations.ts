import { type ClaimingLedgerBase, claimingLedger } from "../deliver/claiming-ledger.js";
import type { DigestLedger } from "../pipeline/digest/digest-types.js";
import { type DueAt, isDue, sendingElsewhere } from "../state/delivery-due.js";
import type { ClaimOptions, SlotLog } from "../state/ledger.js";

/**
 * The ledger as one daemon run of a slot sees it: a destination is claimed only when it is due
 * (pending, its retry due, or a claim older than the send timeout), so one whose failure waits
 * for a later retry, was given up, or is being sent by another process reads as `later` and is
 * left alone. Each destination then keeps its own backoff, and a run for one destination's retry
 * never resends — or retries early — the others.
 */
export function dueDestinationsOnly(
  ledger: ClaimingLedgerBase,
  options: Omit<ClaimOptions, "take"> & {
    /** Called when a claim is taken over from a process that stopped mid-send. */
    onTakenOver?: () => void;
    /**
     * Look in the destination before a first attempt (`Attempt.lookFirst`): when the ledger is
     * newer than the slot. Default true; a slot the ledger knows is new passes false.
     */
    lookFirst?: boolean;
  },
): DigestLedger {
  const { onTakenOver, lookFirst = true, ...claim } = options;
  return claimingLedger(ledger, {
    ...claim,
    take: "due",
    lookFirst,
    ...(onTakenOver ? { onTakenOver } : {}),
  });
}

/**
 * Whether a run of the slot now would attempt anything: it is new, or a destination is
 * pending, interrupted mid-send, or due for its retry. A slot whose failures all wait for a
 * later retry is left to that retry rather than fetched and rendered for nothing.
 */
export async function hasDueDestination(ledger: SlotLog, key: string, at: DueAt): Promise<boolean> {
  const slot = await ledger.getSlot(key);
  return !slot || slot.deliveries.some((d) => isDue(d, at));
}

/** Whether another process is sending one of the slot's deliveries now. */
export async function slotSendingElsewhere(
  ledger: SlotLog,
  key: string,
  at: DueAt,
): Promise<boolean> {
  const slot = await ledger.getSlot(key);
  return slot?.deliveries.some((d) => sendingElsewhere(d, at)) ?? false;
}
