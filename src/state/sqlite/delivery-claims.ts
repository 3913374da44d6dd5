import type Database from "better-sqlite3";
import type { Claimed, ClaimOptions, DeliveryLog, NotClaimed, SlotLog, Sync } from "../ledger.js";
import { type ClaimRow, toClaimed } from "../slot-rows.js";

// Claiming a slot's run and a destination for sending, and the parts of a delivery done so far. The claim is one
// conditional upsert (INSERT … ON CONFLICT DO UPDATE … WHERE … RETURNING), so two processes that
// reach the same send at once cannot both win, and the same statement carries over to
// PostgreSQL; its token fences the claimer's later writes.

export type ClaimStore = Pick<
  Sync<DeliveryLog>,
  "claimDelivery" | "holdsClaim" | "partsDone" | "recordPart" | "forgetParts"
> &
  Pick<Sync<SlotLog>, "claimSlotRun" | "releaseSlotRun">;

/** Claims and delivery parts over an open database; `afterClaim` runs in the claim's transaction. */
export function createClaimStore(
  db: Database.Database,
  now: () => Date,
  hooks: {
    afterClaim(key: string): void;
    notClaimed(key: string, destination: string): NotClaimed;
  },
): ClaimStore {
  const q = prepare(db);
  return {
    claimDelivery: (key, destination, options) =>
      db
        .transaction((): Claimed | NotClaimed => {
          const row = q.claim.get(claimParams(key, destination, options, now()));
          if (!row) return hooks.notClaimed(key, destination);
          hooks.afterClaim(key);
          return toClaimed(row);
        })
        .immediate(),

    holdsClaim: (key, destination, claim) => q.holds.get(key, destination, claim) !== undefined,

    claimSlotRun: (key, owner, expiryMs) => {
      const at = now();
      const row = q.claimRun.get({
        key,
        owner,
        now: at.toISOString(),
        staleBefore: new Date(at.getTime() - expiryMs).toISOString(),
      });
      return row ? { token: row.token, takenOver: row.taken_over === 1 } : null;
    },

    releaseSlotRun: (key, claim) => {
      q.releaseRun.run(key, claim.token);
    },

    partsDone: (key, destination) =>
      new Map(q.parts.all(key, destination).map((p) => [p.part, p.ref] as const)),

    recordPart: (key, destination, part, ref) => {
      q.recordPart.run({ key, destination, part, ref, now: now().toISOString() });
    },

    forgetParts: (key, destination) => {
      q.forgetParts.run(key, destination);
    },
  };
}

function claimParams(key: string, destination: string, options: ClaimOptions, at: Date) {
  return {
    key,
    destination,
    owner: options.owner,
    take: options.take,
    now: at.toISOString(),
    staleBefore: new Date(at.getTime() - options.sendTimeoutMs).toISOString(),
    // When the claim goes stale: a send unfinished by then is owed a retry.
    retryAt: options.retryIfUnfinished
      ? new Date(at.getTime() + options.sendTimeoutMs).toISOString()
      : null,
  };
}

function prepare(db: Database.Database) {
  return {
    // A sending row from before claims were recorded has no claimed_at: its updated_at is when
    // its attempt began.
    claim: db.prepare<[ReturnType<typeof claimParams>], ClaimRow>(
      `INSERT INTO deliveries
         (slot_key, destination, state, attempts, next_attempt_at, updated_at, claim, claimed_by, claimed_at, claimed_from)
       VALUES (@key, @destination, 'sending', 1, @retryAt, @now, 1, @owner, @now, 'new')
       ON CONFLICT (slot_key, destination) DO UPDATE SET
         state = 'sending', attempts = attempts + 1, next_attempt_at = @retryAt, updated_at = @now,
         claim = claim + 1, claimed_by = @owner, claimed_at = @now, claimed_from = state
       WHERE @take = 'any'
         OR state = 'pending'
         OR (state = 'failed'
             AND (@take = 'open' OR (next_attempt_at IS NOT NULL AND next_attempt_at <= @now)))
         OR (state = 'sending' AND coalesce(claimed_at, updated_at) <= @staleBefore)
       RETURNING claim, claimed_from, attempts, slack_ts, message_id`,
    ),
    holds: db.prepare<[string, string, number], { claim: number }>(
      "SELECT claim FROM deliveries WHERE slot_key = ? AND destination = ? AND claim = ?",
    ),
    // A run claim is free once released, or once older than the expiry (its holder is gone).
    claimRun: db.prepare<
      [{ key: string; owner: string; now: string; staleBefore: string }],
      { token: number; taken_over: number }
    >(
      `INSERT INTO slot_runs (slot_key, token, claimed_by, claimed_at)
       VALUES (@key, 1, @owner, @now)
       ON CONFLICT (slot_key) DO UPDATE SET
         token = token + 1, claimed_by = @owner, claimed_at = @now,
         taken_over = 1 - released, released = 0
       WHERE released = 1 OR claimed_at <= @staleBefore
       RETURNING token, taken_over`,
    ),
    releaseRun: db.prepare<[string, number]>(
      "UPDATE slot_runs SET released = 1 WHERE slot_key = ? AND token = ?",
    ),
    parts: db.prepare<[string, string], { part: string; ref: string | null }>(
      "SELECT part, ref FROM delivery_parts WHERE slot_key = ? AND destination = ? ORDER BY part",
    ),
    recordPart: db.prepare(
      `INSERT INTO delivery_parts (slot_key, destination, part, ref, done_at)
       VALUES (@key, @destination, @part, @ref, @now)
       ON CONFLICT (slot_key, destination, part) DO NOTHING`,
    ),
    forgetParts: db.prepare<[string, string]>(
      "DELETE FROM delivery_parts WHERE slot_key = ? AND destination = ?",
    ),
  };
}
