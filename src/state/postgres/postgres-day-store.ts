import type pg from "pg";
import { DAY_COLUMNS, type DayRow, dayFromRow, dayValues, KEEP_LATEST_FETCH } from "../day-rows.js";
import { type DaySeries, type DayStore, type StoredDay, sameSeries } from "../day-store.js";

// The day store in the PostgreSQL ledger (table `insight_days`, migration 2). Replicas writing
// the same day at once leave one row: the primary key makes the second insert an update.

/** Runs one statement, waiting out a lost connection as the ledger does (`postgres-retry.ts`). */
type Retrying = <T>(call: () => Promise<T>) => Promise<T>;

/**
 * The day store over a pool to a migrated database; `close` ends the pool. Each write is sent at
 * once; one its caller does not wait on is still seen by a later read of its series, which waits
 * for it, and by `close`.
 */
export function createPostgresDayStore(
  pool: pg.Pool,
  retrying: Retrying = (call) => call(),
): DayStore {
  const writing = new Set<{ series: DaySeries; done: Promise<unknown> }>();
  /** `write` tracked until it settles (its outcome is its caller's). */
  function tracked(series: DaySeries, write: Promise<void>): Promise<void> {
    const entry = { series, done: write.catch(() => {}) };
    writing.add(entry);
    void entry.done.then(() => writing.delete(entry));
    return write;
  }
  /** One statement for a series' days: a later-fetched copy replaces the held one. */
  async function writeAll(series: DaySeries, days: readonly StoredDay[]): Promise<void> {
    if (days.length === 0) return;
    const values: unknown[] = [series.projectId, series.filters, series.timezone];
    const tuples = days.map((day) => {
      const first = values.length + 1;
      values.push(...dayValues(day));
      const slots = Array.from({ length: 10 }, (_, i) => `$${first + i}`).join(", ");
      return `($1, $2, $3, ${slots})`;
    });
    await retrying(() =>
      pool.query(
        `INSERT INTO insight_days (project, filters, zone, ${DAY_COLUMNS})
         VALUES ${tuples.join(", ")} ${KEEP_LATEST_FETCH}`,
        values,
      ),
    );
  }
  const settled = (matches: (series: DaySeries) => boolean) =>
    Promise.all([...writing].filter((w) => matches(w.series)).map((w) => w.done));
  return {
    async readDays(series, start, end) {
      await settled((other) => sameSeries(other, series));
      const { rows } = await retrying(() =>
        pool.query<DayRow>(
          `SELECT ${DAY_COLUMNS} FROM insight_days
         WHERE project = $1 AND filters = $2 AND zone = $3 AND date >= $4 AND date <= $5
         ORDER BY date`,
          [series.projectId, series.filters, series.timezone, start, end],
        ),
      );
      return rows.map(dayFromRow);
    },
    writeDays(series, days) {
      return tracked(series, writeAll(series, days));
    },
    async coverage() {
      await settled(() => true);
      const { rows } = await retrying(() =>
        pool.query<{
          project: string;
          filters: string;
          zone: string;
          first: string;
          last: string;
          days: string;
        }>(
          `SELECT project, filters, zone, MIN(date) AS first, MAX(date) AS last, COUNT(*) AS days
         FROM insight_days GROUP BY project, filters, zone ORDER BY project, filters, zone`,
        ),
      );
      return rows.map((row) => ({
        projectId: row.project,
        filters: row.filters,
        timezone: row.zone,
        first: row.first,
        last: row.last,
        days: Number(row.days),
      }));
    },
    async forgetBefore(date) {
      await settled(() => true);
      const { rowCount } = await retrying(() =>
        pool.query("DELETE FROM insight_days WHERE date < $1", [date]),
      );
      return rowCount ?? 0;
    },
    async claimFetch(series, start, owner, expiryMs) {
      // Judged by the database's clock, as the ledger's claims; xmax = 0 on a row just inserted.
      const { rows } = await retrying(() =>
        pool.query<{ inserted: boolean }>(
          `INSERT INTO day_fetch_claims AS c (project, filters, zone, start_date, owner, claimed_at)
           VALUES ($1, $2, $3, $4, $5, now())
           ON CONFLICT (project, filters, zone, start_date) DO UPDATE SET
             owner = excluded.owner, claimed_at = excluded.claimed_at
           WHERE c.owner = excluded.owner
              OR c.claimed_at < now() - make_interval(secs => $6::double precision / 1000)
           RETURNING (xmax = 0) AS inserted`,
          [series.projectId, series.filters, series.timezone, start, owner, expiryMs],
        ),
      );
      const row = rows[0];
      return row === undefined ? "held" : row.inserted ? "won" : "taken_over";
    },
    async releaseFetch(series, start, owner) {
      await settled((other) => sameSeries(other, series));
      await retrying(() =>
        pool.query(
          `DELETE FROM day_fetch_claims
           WHERE project = $1 AND filters = $2 AND zone = $3 AND start_date = $4 AND owner = $5`,
          [series.projectId, series.filters, series.timezone, start, owner],
        ),
      );
    },
    async close() {
      await settled(() => true);
      await pool.end();
    },
  };
}
