import type Database from "better-sqlite3";
import type { DeliveryLog, SlotLog, SlotWithDeliveries, Sync } from "../ledger.js";
import { receiptColumns } from "../receipt-columns.js";
import { cleanError, type DeliveryRow, type SlotRow, toDelivery, toSlot } from "../slot-rows.js";
import { createClaimStore } from "./delivery-claims.js";

// Slots and their deliveries in SQLite: the per-destination state machine behind exactly-once
// delivery. Every change that reads before it writes runs in an IMMEDIATE transaction, so a
// second connection (a CLI `run` beside the daemon) waits its turn instead of racing.

/** The slot log (but for `jobFirstSeen`, `job-first-seen.ts`) and the delivery log. */
export type SlotStore = Omit<Sync<SlotLog>, "jobFirstSeen"> & Sync<DeliveryLog>;

// A delivery is open while it may still be sent: not sent, and not failed for good.
const OPEN =
  "(state IN ('pending', 'sending') OR (state = 'failed' AND next_attempt_at IS NOT NULL))";

/** The slot and delivery half of the ledger, over an open database. */
export function createSlotStore(db: Database.Database, now: () => Date): SlotStore {
  const q = prepare(db);
  const stamp = () => now().toISOString();
  const isOpen = (key: string) => (q.openCount.get(key)?.n ?? 0) > 0;

  /** Keeps `finished_at` in step with the deliveries, inside the caller's transaction. */
  const refreshFinished = (key: string) => {
    const slot = q.slot.get(key);
    if (!slot) return;
    const open = isOpen(key);
    if (open && slot.finished_at !== null) q.setFinished.run(null, key);
    if (!open && slot.finished_at === null) q.setFinished.run(stamp(), key);
  };

  const withDeliveries = (row: SlotRow): SlotWithDeliveries => ({
    ...toSlot(row),
    deliveries: q.deliveries.all(row.key).map(toDelivery),
  });

  const write = <T>(change: () => T): T => db.transaction(change).immediate();
  const claims = createClaimStore(db, now, {
    afterClaim: refreshFinished,
    notClaimed: (key, destination) => {
      const row = q.delivery.get(key, destination);
      return { claimed: false, delivery: row ? toDelivery(row) : null };
    },
  });

  return {
    ...claims,
    recordSlot: (slot) =>
      write(() => {
        const at = stamp();
        const { key, team, kind, job, period } = slot;
        const fireAt = slot.fireAt.toISOString();
        const inserted = q.insertSlot.run(
          key,
          team,
          kind,
          job,
          fireAt,
          period.start,
          period.end,
          at,
        );
        const owed = slot.owedRetry;
        const error = owed ? cleanError(owed.error) : null;
        const next = owed?.dueAt.toISOString() ?? null;
        for (const destination of slot.destinations) {
          if (owed) q.insertOwed.run(key, destination, error, next, at);
          else q.insertPending.run(key, destination, at);
        }
        refreshFinished(key);
        return inserted.changes > 0;
      }),

    getSlot: (key) => {
      const row = q.slot.get(key);
      return row ? withDeliveries(row) : null;
    },

    isSlotDelivered: (key) => q.slot.get(key) !== undefined && !isOpen(key),

    markSent: (key, destination, receipt, claim) =>
      write(() => {
        const written = q.sent.run({
          key,
          destination,
          ...receiptColumns(destination, receipt),
          note: receipt.note ?? null,
          now: stamp(),
          claim: claim ?? null,
        });
        refreshFinished(key);
        return written.changes > 0;
      }),

    markFailed: (key, destination, error, nextAttemptAt, claim) =>
      write(() => {
        const next = nextAttemptAt?.toISOString() ?? null;
        const fields = { key, destination, error: cleanError(error), next, now: stamp() };
        const written = q.failed.run({ ...fields, claim: claim ?? null });
        refreshFinished(key);
        return written.changes > 0;
      }),

    dueRetries: (at) =>
      q.dueRetries.all(at.toISOString()).flatMap((row) => {
        const slot = q.slot.get(row.slot_key);
        if (!slot || row.next_attempt_at === null) return [];
        const { destination, attempts, last_error: lastError, claim } = row;
        return [
          {
            slot: toSlot(slot),
            destination,
            attempts,
            lastError,
            nextAttemptAt: new Date(row.next_attempt_at),
            claim,
          },
        ];
      }),

    history: ({ team, limit }) =>
      q.history
        .all({ team: team ?? null, limit: Math.max(0, Math.floor(limit)) })
        .map(withDeliveries),
  };
}

function prepare(db: Database.Database) {
  return {
    slot: db.prepare<[string], SlotRow>("SELECT * FROM slots WHERE key = ?"),
    insertSlot: db.prepare<[string, string, string, string, string, string, string, string]>(
      `INSERT OR IGNORE INTO slots (key, team, kind, job, fire_at, period_start, period_end, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    setFinished: db.prepare<[string | null, string]>(
      "UPDATE slots SET finished_at = ? WHERE key = ?",
    ),
    history: db.prepare<[{ team: string | null; limit: number }], SlotRow>(
      `SELECT * FROM slots WHERE @team IS NULL OR team = @team
       ORDER BY fire_at DESC, key DESC LIMIT @limit`,
    ),
    delivery: db.prepare<[string, string], DeliveryRow>(
      "SELECT * FROM deliveries WHERE slot_key = ? AND destination = ?",
    ),
    deliveries: db.prepare<[string], DeliveryRow>(
      "SELECT * FROM deliveries WHERE slot_key = ? ORDER BY destination",
    ),
    openCount: db.prepare<[string], { n: number }>(
      `SELECT count(*) AS n FROM deliveries WHERE slot_key = ? AND ${OPEN}`,
    ),
    insertPending: db.prepare<[string, string, string]>(
      `INSERT OR IGNORE INTO deliveries (slot_key, destination, state, attempts, updated_at)
       VALUES (?, ?, 'pending', 0, ?)`,
    ),
    insertOwed: db.prepare<[string, string, string | null, string | null, string]>(
      `INSERT OR IGNORE INTO deliveries (slot_key, destination, state, attempts, last_error, next_attempt_at, updated_at)
       VALUES (?, ?, 'failed', 0, ?, ?, ?)`,
    ),
    // With a claim token, only the claim's holder writes: one whose claim was taken over does not.
    sent: db.prepare(
      `INSERT INTO deliveries (slot_key, destination, state, attempts, slack_ts, message_id, last_error, updated_at)
       VALUES (@key, @destination, 'sent', 1, @slack_ts, @message_id, @note, @now)
       ON CONFLICT (slot_key, destination) DO UPDATE SET
         state = 'sent', next_attempt_at = NULL, updated_at = @now, last_error = @note,
         slack_ts = coalesce(@slack_ts, slack_ts), message_id = coalesce(@message_id, message_id)
       WHERE @claim IS NULL OR claim = @claim`,
    ),
    // A failure reported after the destination was sent never undoes the send.
    failed: db.prepare(
      `INSERT INTO deliveries (slot_key, destination, state, attempts, last_error, next_attempt_at, updated_at)
       VALUES (@key, @destination, 'failed', 1, @error, @next, @now)
       ON CONFLICT (slot_key, destination) DO UPDATE SET
         state = 'failed', last_error = @error, next_attempt_at = @next, updated_at = @now
       WHERE state <> 'sent' AND (@claim IS NULL OR claim = @claim)`,
    ),
    // A sending row has a next attempt only from a claim that asked for one (retryIfUnfinished):
    // due then, its claim stale, it is a send its sender never finished.
    dueRetries: db.prepare<[string], DeliveryRow>(
      `SELECT * FROM deliveries
       WHERE state IN ('failed', 'sending') AND next_attempt_at IS NOT NULL AND next_attempt_at <= ?
       ORDER BY next_attempt_at, slot_key, destination`,
    ),
  };
}
