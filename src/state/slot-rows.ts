import type { Instant } from "./instant.js";
import type { Claimed, Delivery, DeliveryState, Slot, SlotKind } from "./ledger.js";
import { type ReceiptColumns, receiptRef } from "./receipt-columns.js";

// The rows of slots and deliveries, and their mapping to the ledger's plain records. SQLite
// stores instants as ISO strings in UTC, which sort and compare as text; PostgreSQL as
// timestamptz, which its driver reads as Dates (`Instant`).

export interface SlotRow {
  key: string;
  team: string;
  kind: SlotKind;
  job: string;
  fire_at: Instant;
  period_start: string;
  period_end: string;
  created_at: Instant;
  finished_at: Instant | null;
}

export interface DeliveryRow extends ReceiptColumns {
  slot_key: string;
  destination: string;
  state: DeliveryState;
  attempts: number;
  last_error: string | null;
  next_attempt_at: Instant | null;
  updated_at: Instant;
  claim: number;
  claimed_by: string | null;
  claimed_at: Instant | null;
}

/** What a winning claim statement returns (`RETURNING …`), in either store. */
export interface ClaimRow extends ReceiptColumns {
  claim: number;
  claimed_from: DeliveryState | "new";
  attempts: number;
}

/** A won claim's row as the claim: its token, and the delivery as it was before. */
export function toClaimed(row: ClaimRow): Claimed {
  return {
    claimed: true,
    token: row.claim,
    before: {
      state: row.claimed_from,
      attempts: row.attempts - 1,
      ref: receiptRef(row),
    },
  };
}

// Stored errors are for people reading history: the message, never a stack, and not a novel.
const MAX_ERROR_CHARS = 1_000;

/** A slot row as a record. */
export function toSlot(row: SlotRow): Slot {
  return {
    key: row.key,
    team: row.team,
    kind: row.kind,
    job: row.job,
    fireAt: new Date(row.fire_at),
    period: { start: row.period_start, end: row.period_end },
    createdAt: new Date(row.created_at),
    finishedAt: optionalDate(row.finished_at),
  };
}

/** A delivery row as a record. */
export function toDelivery(row: DeliveryRow): Delivery {
  return {
    destination: row.destination,
    state: row.state,
    attempts: row.attempts,
    lastError: row.last_error,
    nextAttemptAt: optionalDate(row.next_attempt_at),
    ref: receiptRef(row),
    updatedAt: new Date(row.updated_at),
    claim: row.claim,
    claimedBy: row.claimed_by,
    claimedAt: optionalDate(row.claimed_at),
  };
}

/** Only an error's message: stack lines dropped, whitespace collapsed, length capped. */
export function cleanError(error: string): string {
  const message = error
    .split("\n")
    .filter((line) => !/^\s+at\s/.test(line))
    .join(" ")
    .replace(/\s+/g, " ")
    .trim();
  return message.length > MAX_ERROR_CHARS ? `${message.slice(0, MAX_ERROR_CHARS - 1)}…` : message;
}

function optionalDate(iso: Instant | null): Date | null {
  return iso === null ? null : new Date(iso);
}
