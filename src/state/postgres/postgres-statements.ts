import type { Pool, PoolClient, QueryResultRow } from "pg";
import {
  type AlertStateRow,
  type EvaluationRow,
  evaluationValues,
  toAlertState,
  toEvaluation,
} from "../alert-state-rows.js";
import type { Instant } from "../instant.js";
import type { Claimed, JobRef, Ledger, NotClaimed } from "../ledger.js";
import { receiptColumns } from "../receipt-columns.js";
import {
  type ClaimRow,
  cleanError,
  type DeliveryRow,
  type SlotRow,
  toClaimed,
  toDelivery,
  toSlot,
} from "../slot-rows.js";
import { postgresAcknowledgements } from "./postgres-acknowledgements.js";
import { postgresIncidents } from "./postgres-incidents.js";
import { postgresSilences } from "./postgres-silences.js";

// The ledger's statements in PostgreSQL. Each change that must not race is one conditional
// statement (a claim is `INSERT … ON CONFLICT DO UPDATE … WHERE … RETURNING`, the same as in
// SQLite), or a short transaction; every instant a claim is judged by is the database's clock
// (`clock_timestamp()`), so replicas whose clocks disagree still agree on who holds what.

export type PostgresStatements = Omit<
  Ledger,
  | "location"
  | "shared"
  | "fileProblem"
  | "reachable"
  | "acquireDaemonLease"
  | "renewLease"
  | "releaseLease"
  | "close"
>;

type Queryable = Pick<Pool | PoolClient, "query">;

// A delivery is open while it may still be sent: not sent, and not failed for good.
const OPEN =
  "(d.state IN ('pending', 'sending') OR (d.state = 'failed' AND d.next_attempt_at IS NOT NULL))";

// Keeps `finished_at` in step with the slot's deliveries, after a change to one of them.
const REFRESH_FINISHED = `
  UPDATE slots s SET finished_at = CASE
    WHEN EXISTS (SELECT 1 FROM deliveries d WHERE d.slot_key = s.key AND ${OPEN}) THEN NULL
    ELSE coalesce(s.finished_at, clock_timestamp()) END
  WHERE s.key = $1`;

const AGO = (param: string) => `clock_timestamp() - ${param} * interval '1 millisecond'`;
const HENCE = (param: string) => `clock_timestamp() + ${param} * interval '1 millisecond'`;

/** The ledger's reads and writes over a pool; `transaction` runs a function on one client. */
export function postgresStatements(
  pool: Pool,
  transaction: <T>(work: (client: PoolClient) => Promise<T>) => Promise<T>,
): PostgresStatements {
  const rows = async <R extends QueryResultRow>(db: Queryable, sql: string, params: unknown[]) =>
    (await db.query<R>(sql, params)).rows;

  const deliveriesOf = async (keys: string[]) => {
    const found = await rows<DeliveryRow>(
      pool,
      "SELECT * FROM deliveries WHERE slot_key = ANY($1) ORDER BY destination",
      [keys],
    );
    return (key: string) => found.filter((d) => d.slot_key === key).map(toDelivery);
  };
  const firstSeenAt = async ({ team, kind, job }: JobRef): Promise<Date | null> => {
    const [row] = await rows<{ first_seen_at: Instant }>(
      pool,
      "SELECT first_seen_at FROM job_first_seen WHERE team = $1 AND kind = $2 AND job = $3",
      [team, kind, job],
    );
    return row ? new Date(row.first_seen_at) : null;
  };
  const withDeliveries = async (slots: SlotRow[]) => {
    const of = await deliveriesOf(slots.map((s) => s.key));
    return slots.map((s) => ({ ...toSlot(s), deliveries: of(s.key) }));
  };
  const insertSlot = async (db: Queryable, slot: Parameters<Ledger["recordSlot"]>[0]) => {
    const inserted = await rows(
      db,
      `INSERT INTO slots (key, team, kind, job, fire_at, period_start, period_end, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, clock_timestamp())
       ON CONFLICT (key) DO NOTHING RETURNING key`,
      [slot.key, slot.team, slot.kind, slot.job, slot.fireAt, slot.period.start, slot.period.end],
    );
    const owed = slot.owedRetry;
    await db.query(
      `INSERT INTO deliveries (slot_key, destination, state, attempts, last_error, next_attempt_at, updated_at)
       SELECT $1, destination, $3, 0, $4, $5, clock_timestamp() FROM unnest($2::text[]) AS destination
       ON CONFLICT (slot_key, destination) DO NOTHING`,
      [
        slot.key,
        [...slot.destinations],
        owed ? "failed" : "pending",
        owed ? cleanError(owed.error) : null,
        owed?.dueAt ?? null,
      ],
    );
    await db.query(REFRESH_FINISHED, [slot.key]);
    return inserted.length > 0;
  };
  // When the claim goes stale, if it asked to be owed a retry: a send unfinished by then is due.
  const RETRY_AT = `CASE WHEN $6::boolean THEN ${HENCE("$5")} END`;
  const claimDelivery: Ledger["claimDelivery"] = (key, destination, options) =>
    transaction(async (client): Promise<Claimed | NotClaimed> => {
      const [row] = await rows<ClaimRow>(
        client,
        `INSERT INTO deliveries AS d
           (slot_key, destination, state, attempts, next_attempt_at, updated_at, claim, claimed_by, claimed_at, claimed_from)
         VALUES ($1, $2, 'sending', 1, ${RETRY_AT}, clock_timestamp(), 1, $3, clock_timestamp(), 'new')
         ON CONFLICT (slot_key, destination) DO UPDATE SET
           state = 'sending', attempts = d.attempts + 1, next_attempt_at = ${RETRY_AT},
           updated_at = clock_timestamp(), claim = d.claim + 1, claimed_by = $3,
           claimed_at = clock_timestamp(), claimed_from = d.state
         WHERE $4 = 'any'
           OR d.state = 'pending'
           OR (d.state = 'failed'
               AND ($4 = 'open' OR (d.next_attempt_at IS NOT NULL AND d.next_attempt_at <= clock_timestamp())))
           OR (d.state = 'sending' AND coalesce(d.claimed_at, d.updated_at) <= ${AGO("$5")})
         RETURNING claim, claimed_from, attempts, slack_ts, message_id`,
        [
          key,
          destination,
          options.owner,
          options.take,
          options.sendTimeoutMs,
          options.retryIfUnfinished === true,
        ],
      );
      if (!row) {
        const [current] = await rows<DeliveryRow>(
          client,
          "SELECT * FROM deliveries WHERE slot_key = $1 AND destination = $2",
          [key, destination],
        );
        return { claimed: false, delivery: current ? toDelivery(current) : null };
      }
      await client.query(REFRESH_FINISHED, [key]);
      return toClaimed(row);
    });

  return {
    ...postgresSilences(pool),
    ...postgresIncidents(pool, transaction, insertSlot),
    ...postgresAcknowledgements(pool),
    recordSlot: (slot) => transaction((client) => insertSlot(client, slot)),

    getSlot: async (key) => {
      const found = await rows<SlotRow>(pool, "SELECT * FROM slots WHERE key = $1", [key]);
      return (await withDeliveries(found))[0] ?? null;
    },

    isSlotDelivered: async (key) => {
      const [row] = await rows<{ delivered: boolean }>(
        pool,
        `SELECT NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.slot_key = s.key AND ${OPEN}) AS delivered
         FROM slots s WHERE s.key = $1`,
        [key],
      );
      return row?.delivered ?? false;
    },

    claimSlotRun: async (key, owner, expiryMs) => {
      const [row] = await rows<{ token: number; taken_over: boolean }>(
        pool,
        `INSERT INTO slot_runs AS r (slot_key, token, claimed_by, claimed_at)
         VALUES ($1, 1, $2, clock_timestamp())
         ON CONFLICT (slot_key) DO UPDATE SET
           token = r.token + 1, claimed_by = $2, claimed_at = clock_timestamp(),
           taken_over = NOT r.released, released = false
         WHERE r.released OR r.claimed_at <= ${AGO("$3")}
         RETURNING token, taken_over`,
        [key, owner, expiryMs],
      );
      return row ? { token: row.token, takenOver: row.taken_over } : null;
    },

    releaseSlotRun: async (key, claim) => {
      await pool.query("UPDATE slot_runs SET released = true WHERE slot_key = $1 AND token = $2", [
        key,
        claim.token,
      ]);
    },

    claimDelivery,

    holdsClaim: async (key, destination, claim) =>
      (
        await rows(
          pool,
          "SELECT 1 FROM deliveries WHERE slot_key = $1 AND destination = $2 AND claim = $3",
          [key, destination, claim],
        )
      ).length > 0,

    // With a claim token, only the claim's holder writes: one whose claim was taken over does not.
    markSent: (key, destination, receipt, claim) =>
      transaction(async (client) => {
        const columns = receiptColumns(destination, receipt);
        const written = await client.query(
          `INSERT INTO deliveries AS d (slot_key, destination, state, attempts, slack_ts, message_id, last_error, updated_at)
           VALUES ($1, $2, 'sent', 1, $3, $4, $6, clock_timestamp())
           ON CONFLICT (slot_key, destination) DO UPDATE SET
             state = 'sent', next_attempt_at = NULL, updated_at = clock_timestamp(), last_error = $6,
             slack_ts = coalesce($3, d.slack_ts), message_id = coalesce($4, d.message_id)
           WHERE $5::integer IS NULL OR d.claim = $5`,
          [
            key,
            destination,
            columns.slack_ts,
            columns.message_id,
            claim ?? null,
            receipt.note ?? null,
          ],
        );
        await client.query(REFRESH_FINISHED, [key]);
        return (written.rowCount ?? 0) > 0;
      }),

    // A failure reported after the destination was sent never undoes the send.
    markFailed: (key, destination, error, nextAttemptAt, claim) =>
      transaction(async (client) => {
        const written = await client.query(
          `INSERT INTO deliveries AS d (slot_key, destination, state, attempts, last_error, next_attempt_at, updated_at)
           VALUES ($1, $2, 'failed', 1, $3, $4, clock_timestamp())
           ON CONFLICT (slot_key, destination) DO UPDATE SET
             state = 'failed', last_error = $3, next_attempt_at = $4, updated_at = clock_timestamp()
           WHERE d.state <> 'sent' AND ($5::integer IS NULL OR d.claim = $5)`,
          [key, destination, cleanError(error), nextAttemptAt, claim ?? null],
        );
        await client.query(REFRESH_FINISHED, [key]);
        return (written.rowCount ?? 0) > 0;
      }),

    partsDone: async (key, destination) =>
      new Map(
        (
          await rows<{ part: string; ref: string | null }>(
            pool,
            "SELECT part, ref FROM delivery_parts WHERE slot_key = $1 AND destination = $2 ORDER BY part",
            [key, destination],
          )
        ).map((p) => [p.part, p.ref] as const),
      ),

    recordPart: async (key, destination, part, ref) => {
      await pool.query(
        `INSERT INTO delivery_parts (slot_key, destination, part, ref, done_at)
         VALUES ($1, $2, $3, $4, clock_timestamp())
         ON CONFLICT (slot_key, destination, part) DO NOTHING`,
        [key, destination, part, ref],
      );
    },

    forgetParts: async (key, destination) => {
      await pool.query("DELETE FROM delivery_parts WHERE slot_key = $1 AND destination = $2", [
        key,
        destination,
      ]);
    },

    // A sending row has a next attempt only from a claim that asked for one (retryIfUnfinished):
    // due then, its claim stale, it is a send its sender never finished.
    dueRetries: async (now) => {
      const due = await rows<DeliveryRow & { slot: SlotRow }>(
        pool,
        `SELECT d.*, to_jsonb(s) AS slot FROM deliveries d JOIN slots s ON s.key = d.slot_key
         WHERE d.state IN ('failed', 'sending') AND d.next_attempt_at IS NOT NULL
           AND d.next_attempt_at <= $1
         ORDER BY d.next_attempt_at, d.slot_key, d.destination`,
        [now],
      );
      return due.map((row) => ({
        slot: toSlot(row.slot),
        destination: row.destination,
        attempts: row.attempts,
        lastError: row.last_error,
        nextAttemptAt: new Date(row.next_attempt_at ?? now),
        claim: row.claim,
      }));
    },

    alertStates: async (team, alert) =>
      (
        await rows<AlertStateRow>(
          pool,
          "SELECT * FROM alert_states WHERE team = $1 AND alert = $2 ORDER BY scope",
          [team, alert],
        )
      ).map(toAlertState),

    firingAlerts: async (team) =>
      (
        await rows<AlertStateRow>(
          pool,
          `SELECT * FROM alert_states WHERE team = $1 AND state IN ('warn', 'critical')
           ORDER BY alert, scope`,
          [team],
        )
      ).map(toAlertState),

    // The slot, the states and the evaluation in one transaction; nothing when the slot exists.
    recordAlertEvaluation: (record) =>
      transaction(async (client) => {
        if (!(await insertSlot(client, record.slot))) return false;
        for (const s of record.states) {
          await client.query(
            `INSERT INTO alert_states (team, alert, scope, state, since, breaches, last_value,
               last_notified_at, fired_at, thread_key, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, clock_timestamp())
             ON CONFLICT (team, alert, scope) DO UPDATE SET
               state = $4, since = $5, breaches = $6, last_value = $7, last_notified_at = $8,
               fired_at = $9, thread_key = $10, updated_at = clock_timestamp()`,
            [
              s.team,
              s.alert,
              s.scope,
              s.state,
              s.since,
              s.breaches,
              s.lastValue,
              s.lastNotifiedAt,
              s.firedAt,
              s.threadKey,
            ],
          );
        }
        await client.query(
          `INSERT INTO alert_evaluations (slot_key, team, alert, period_start, period_end, results,
             notification, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, clock_timestamp())`,
          evaluationValues(record),
        );
        return true;
      }),

    getAlertEvaluation: async (key) => {
      const [row] = await rows<EvaluationRow>(
        pool,
        "SELECT * FROM alert_evaluations WHERE slot_key = $1",
        [key],
      );
      return row ? toEvaluation(row) : null;
    },

    alertEvaluations: async ({ team, from, to }) =>
      (
        await rows<EvaluationRow>(
          pool,
          `SELECT * FROM alert_evaluations WHERE team = $1 AND period_start >= $2 AND period_end <= $3
           ORDER BY period_start, alert`,
          [team, from, to],
        )
      ).map(toEvaluation),

    jobFirstSeen: async (ref, at) => {
      // Seen before, as on every run but a job's first: one read, no row written or locked.
      const seen = await firstSeenAt(ref);
      if (seen) return seen;
      const { team, kind, job } = ref;
      const [inserted] = await rows<{ first_seen_at: Instant }>(
        pool,
        `INSERT INTO job_first_seen (team, kind, job, first_seen_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (team, kind, job) DO NOTHING RETURNING first_seen_at`,
        [team, kind, job, at],
      );
      if (inserted) return new Date(inserted.first_seen_at);
      // Seen by another replica just now: a statement of its own, so that it sees a row
      // committed while the INSERT waited on it.
      const theirs = await firstSeenAt(ref);
      if (!theirs) throw new Error(`job_first_seen has no row for ${team}/${kind}/${job}`);
      return theirs;
    },

    history: async ({ team, limit }) =>
      withDeliveries(
        await rows<SlotRow>(
          pool,
          `SELECT * FROM slots WHERE $1::text IS NULL OR team = $1
           ORDER BY fire_at DESC, key DESC LIMIT $2`,
          [team ?? null, Math.max(0, Math.floor(limit))],
        ),
      ),
  };
}
