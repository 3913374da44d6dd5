import type Database from "better-sqlite3";
import { DAY_COLUMNS, type DayRow, dayFromRow, dayValues, KEEP_LATEST_FETCH } from "../day-rows.js";
import {
  type DaySeries,
  type DayStore,
  type FetchClaim,
  type SeriesCoverage,
  type StoredDay,
  sameSeries,
} from "../day-store.js";
import { groupCommit } from "./group-commit.js";

// The day store in the SQLite ledger file (table `insight_days`, migration 5; its fetch claims,
// `day_fetch_claims`, migration 9).

const PLACEHOLDERS = Array.from({ length: 13 }, () => "?").join(", ");

/**
 * How long writes that follow a commit wait for the rest of their burst: the answers of a
 * cycle's concurrent requests come some milliseconds apart, and a digest waits on the API for
 * longer than this anyway.
 */
const GATHER_MS = 20;

interface SeriesDays {
  series: DaySeries;
  days: readonly StoredDay[];
}

/** The day store over an open, migrated SQLite database; `close` closes the database. */
export function createSqliteDayStore(db: Database.Database): DayStore {
  const read = db.prepare<[string, string, string, string, string], DayRow>(
    `SELECT ${DAY_COLUMNS} FROM insight_days
     WHERE project = ? AND filters = ? AND zone = ? AND date >= ? AND date <= ? ORDER BY date`,
  );
  const write = db.prepare(
    `INSERT INTO insight_days (project, filters, zone, ${DAY_COLUMNS}) VALUES (${PLACEHOLDERS})
     ${KEEP_LATEST_FETCH}`,
  );
  const writeAll = db.transaction((batch: readonly SeriesDays[]) => {
    for (const { series, days } of batch) {
      for (const day of days) {
        write.run(series.projectId, series.filters, series.timezone, ...dayValues(day));
      }
    }
  });
  const writes = groupCommit<SeriesDays>((batch) => writeAll.immediate(batch), {
    gatherMs: GATHER_MS,
    itemsCanCause: oneWriteCanCause,
  });
  const cover = db.prepare<
    [],
    { project: string; filters: string; zone: string; first: string; last: string; days: number }
  >(
    `SELECT project, filters, zone, MIN(date) AS first, MAX(date) AS last, COUNT(*) AS days
     FROM insight_days GROUP BY project, filters, zone ORDER BY project, filters, zone`,
  );
  const forget = db.prepare<[string]>("DELETE FROM insight_days WHERE date < ?");
  const claimKey = "project = ? AND filters = ? AND zone = ? AND start_date = ?";
  const heldBy = db.prepare<
    [string, string, string, string],
    { owner: string; claimed_at: string }
  >(`SELECT owner, claimed_at FROM day_fetch_claims WHERE ${claimKey}`);
  const takeClaim = db.prepare(
    `INSERT INTO day_fetch_claims (project, filters, zone, start_date, owner, claimed_at)
     VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (project, filters, zone, start_date) DO UPDATE SET
       owner = excluded.owner, claimed_at = excluded.claimed_at`,
  );
  const claim = db.transaction(
    (series: DaySeries, start: string, owner: string, expiryMs: number): FetchClaim => {
      const key = [series.projectId, series.filters, series.timezone, start] as const;
      const held = heldBy.get(...key);
      const now = Date.now();
      const live = held && Date.parse(held.claimed_at) > now - expiryMs;
      if (live && held.owner !== owner) return "held";
      takeClaim.run(...key, owner, new Date(now).toISOString());
      return held ? "taken_over" : "won";
    },
  );
  const release = db.prepare(`DELETE FROM day_fetch_claims WHERE ${claimKey} AND owner = ?`);
  return {
    async readDays(series, start, end) {
      writes.flushIf((w) => sameSeries(w.series, series));
      return read
        .all(series.projectId, series.filters, series.timezone, start, end)
        .map(dayFromRow);
    },
    writeDays(series, days, options) {
      return writes.add({ series, days }, options?.commitWithinMs);
    },
    async coverage(): Promise<SeriesCoverage[]> {
      writes.flush();
      return cover.all().map((row) => ({
        projectId: row.project,
        filters: row.filters,
        timezone: row.zone,
        first: row.first,
        last: row.last,
        days: row.days,
      }));
    },
    async forgetBefore(date) {
      writes.flush();
      return forget.run(date).changes;
    },
    async claimFetch(series, start, owner, expiryMs) {
      return claim.immediate(series, start, owner, expiryMs);
    },
    async releaseFetch(series, start, owner) {
      writes.flushIf((w) => sameSeries(w.series, series));
      release.run(series.projectId, series.filters, series.timezone, start, owner);
    },
    async close() {
      if (!db.open) return;
      writes.flush();
      db.close();
    },
  };
}

/**
 * Whether a failed write of several series can have failed for one of them: a constraint or a
 * value SQLite cannot bind. A lock held elsewhere (SQLITE_BUSY), a full disk, an I/O error or a
 * closed database fails each of them alike.
 */
function oneWriteCanCause(error: unknown): boolean {
  if (error instanceof TypeError || error instanceof RangeError) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("SQLITE_CONSTRAINT");
}
