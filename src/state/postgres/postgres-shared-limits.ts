import type pg from "pg";
import type { Logger } from "../../logger.js";
import type { SharedLimits } from "../shared-limits.js";
import { describeUrl } from "./describe-url.js";
import { inTransaction } from "./in-transaction.js";

// Limits shared by replicas (state/shared-limits.ts), in the ledger database: turns counted per
// second and budget (`request_window`), and the holds a refusal's Retry-After puts on a budget
// (`request_holds`), both migration 9. A grant at second s is allowed only while the window's
// whole seconds up to s hold fewer than the limit, and every grant goes at once, in its second:
// with a window of 61 seconds any 60 s (which touches at most 61 whole seconds) holds at most
// the limit, with 62 any 61 s does; with a window of 1, each second does. Turns are taken under
// an advisory lock per budget, as many as a replica has callers waiting, in one transaction.

// Any constant will do, as long as nothing else in the database takes the same advisory lock.
const WINDOW_LOCK = 0x1e5d_9e02;
/** A minute's window (any 60 s); the default. */
const MINUTE_S = 61;
/** The longest window a budget may ask for (the insights API's). */
const LONGEST_S = 62;

/**
 * The limits in the database at `url`, over a pool of its own: two connections (the API's
 * budget and Slack's calls ask at once), made on first use.
 */
export function postgresSharedLimits(url: string, logger: Logger): SharedLimits {
  let pool: Promise<pg.Pool> | null = null;
  const poolOf = () => {
    pool ??= import("./postgres-pool.js").then(({ createPostgresPool }) =>
      createPostgresPool(url, logger, {
        purpose: "shared limits",
        location: describeUrl(url),
        max: 2,
        statementTimeoutMs: 10_000,
      }),
    );
    return pool;
  };

  async function underBudgetLock<T>(budget: string, work: (c: pg.PoolClient) => Promise<T>) {
    const client = await (await poolOf()).connect();
    try {
      return await inTransaction(client, async (locked) => {
        await locked.query("SELECT pg_advisory_xact_lock($1, hashtext($2))", [WINDOW_LOCK, budget]);
        return work(locked);
      });
    } finally {
      client.release();
    }
  }

  return {
    take(budget, wanted, limit, atMs, windowS = MINUTE_S) {
      const seconds = Math.min(Math.max(1, windowS), LONGEST_S);
      const second = Math.floor(atMs / 1000);
      return underBudgetLock(budget, async (client) => {
        const held = await client.query<{ until_ms: string }>(
          "SELECT until_ms FROM request_holds WHERE budget = $1",
          [budget],
        );
        const heldMs = Number(held.rows[0]?.until_ms ?? 0) - atMs;
        if (heldMs > 0) return { granted: 0, waitMs: heldMs };
        const { rows } = await client.query<{ second: string; used: number }>(
          "SELECT second, used FROM request_window WHERE budget = $1 AND second > $2 ORDER BY second",
          [budget, second - seconds],
        );
        const counts = rows.map((r) => ({ second: Number(r.second), used: r.used }));
        const used = counts.reduce((sum, r) => sum + r.used, 0);
        const granted = Math.max(0, Math.min(wanted, limit - used));
        if (granted > 0) {
          await client.query(
            `INSERT INTO request_window (budget, second, used) VALUES ($1, $2, $3)
             ON CONFLICT (budget, second) DO UPDATE SET used = request_window.used + EXCLUDED.used`,
            [budget, second, granted],
          );
        }
        await client.query("DELETE FROM request_window WHERE budget = $1 AND second <= $2", [
          budget,
          second - seconds,
        ]);
        return {
          granted,
          waitMs: granted > 0 ? 0 : waitForRoom(counts, used, limit, atMs, seconds),
        };
      });
    },
    async hold(budget, untilMs) {
      await underBudgetLock(budget, (client) =>
        client.query(
          `INSERT INTO request_holds (budget, until_ms) VALUES ($1, $2)
           ON CONFLICT (budget) DO UPDATE
           SET until_ms = GREATEST(request_holds.until_ms, EXCLUDED.until_ms)`,
          [budget, Math.ceil(untilMs)],
        ),
      );
    },
    async close() {
      if (pool) await (await pool).end();
    },
  };
}

/** How long until enough of the oldest seconds leave the window for one more turn. */
function waitForRoom(
  counts: readonly { second: number; used: number }[],
  used: number,
  limit: number,
  atMs: number,
  seconds: number,
): number {
  let left = used;
  for (const { second, used: inSecond } of counts) {
    left -= inSecond;
    if (left < limit) return Math.max(1, (second + seconds) * 1000 - atMs);
  }
  return 1000;
}
