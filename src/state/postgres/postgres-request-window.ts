import type pg from "pg";
import type { Logger } from "../../logger.js";
import { describeUrl } from "./describe-url.js";

// The insights API's request budget shared by replicas: requests counted per second in the
// ledger database (`api_request_window`, migration 7). A grant at second s is allowed only
// while the 61 seconds s-60..s hold fewer than the limit, and every grant goes at once, in its
// second: so any 60 s (which touches at most 61 whole seconds) holds at most the limit. Turns
// are taken under an advisory lock, as many as a replica has callers waiting, in one round trip.

// Any constant will do, as long as nothing else in the database takes the same advisory lock.
const WINDOW_LOCK = 0x1e5d_9e02;
const SECONDS = 61;

/** Grants up to `wanted` of `limit` requests a minute at `atMs`; how long to wait when none. */
export interface RequestWindow {
  take(wanted: number, limit: number, atMs: number): Promise<{ granted: number; waitMs: number }>;
  close(): Promise<void>;
}

/**
 * The window in the database at `url` (insights/request-budget.ts's SharedRequestWindow), over
 * a pool of its own: one connection, made on first use.
 */
export function postgresRequestWindow(url: string, logger: Logger): RequestWindow {
  let pool: Promise<pg.Pool> | null = null;
  const poolOf = () => {
    pool ??= import("./postgres-pool.js").then(({ createPostgresPool }) =>
      createPostgresPool(url, logger, {
        purpose: "request budget",
        location: describeUrl(url),
        max: 1,
        statementTimeoutMs: 10_000,
      }),
    );
    return pool;
  };
  return {
    async take(wanted, limit, atMs) {
      const second = Math.floor(atMs / 1000);
      const client = await (await poolOf()).connect();
      try {
        await client.query("BEGIN");
        await client.query("SELECT pg_advisory_xact_lock($1)", [WINDOW_LOCK]);
        const { rows } = await client.query<{ second: string; used: number }>(
          "SELECT second, used FROM api_request_window WHERE second > $1 ORDER BY second",
          [second - SECONDS],
        );
        const counts = rows.map((r) => ({ second: Number(r.second), used: r.used }));
        const used = counts.reduce((sum, r) => sum + r.used, 0);
        const granted = Math.max(0, Math.min(wanted, limit - used));
        if (granted > 0) {
          await client.query(
            `INSERT INTO api_request_window (second, used) VALUES ($1, $2)
             ON CONFLICT (second) DO UPDATE SET used = api_request_window.used + EXCLUDED.used`,
            [second, granted],
          );
        }
        await client.query("DELETE FROM api_request_window WHERE second <= $1", [second - SECONDS]);
        await client.query("COMMIT");
        return { granted, waitMs: granted > 0 ? 0 : waitForRoom(counts, used, limit, atMs) };
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    async close() {
      if (pool) await (await pool).end();
    },
  };
}

/** How long until enough of the oldest seconds leave the window for one more request. */
function waitForRoom(
  counts: readonly { second: number; used: number }[],
  used: number,
  limit: number,
  atMs: number,
): number {
  let left = used;
  for (const { second, used: inSecond } of counts) {
    left -= inSecond;
    if (left < limit) return Math.max(1, (second + SECONDS) * 1000 - atMs);
  }
  return 1000;
}
