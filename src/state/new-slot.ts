// A slot as it is first recorded: the part of the ledger's vocabulary that every store (the
// incidents' too) writes with, apart from the ledger so they need not import each other.

/**
 * What a slot delivers: a digest, the notification of an alert evaluation, an incident (many
 * projects firing in one tick) and its resolution, or an acknowledgement from Slack passed on
 * to the destinations that keep a fire's state (PagerDuty).
 */
export type SlotKind = "digest" | "alert" | "incident" | "acknowledgement";

export interface NewSlot {
  /** `checkout.daily.2026-11-15` (see `state/slot-key.ts`). */
  key: string;
  team: string;
  kind: SlotKind;
  /** The digest's or alert's name. */
  job: string;
  fireAt: Date;
  period: { start: string; end: string };
  /**
   * Every destination the slot delivers to (`slack:C0123`, `email:qa@x.com,b@y.com`), recorded
   * as pending with the slot, so a crash before the first send still leaves it undelivered.
   */
  destinations: readonly string[];
  /**
   * Records the destinations as already owed a retry instead of pending: failed with `error`,
   * their retry due at `dueAt`. In the same write as the slot, so a process that stops before
   * its send leaves them to the due retries; a slot no schedule plans (an acknowledgement) has
   * no other way back to a pending destination.
   */
  owedRetry?: { error: string; dueAt: Date };
}
