import { resolve } from "node:path";
import type { Logger } from "../../logger.js";
import type { DayStore } from "../day-store.js";
import { describeUrl } from "../postgres/describe-url.js";
import { openLedger } from "../sqlite/open-ledger.js";
import { Database } from "../sqlite/sqlite.js";
import { createSqliteDayStore } from "../sqlite/sqlite-day-store.js";
import type { StoreConfig } from "./open-store.js";

// The day store lives in the ledger (same file or database, same migrations) on a connection of
// its own: the ledger is opened once first, so that migrating, and refusing a file or database
// that is not ours, with the fix named, happen exactly as for the ledger. The PostgreSQL modules
// (and the `pg` driver) are loaded only for a database, not for an SQLite file.

const BUSY_TIMEOUT_MS = 5_000;

/** Opens the day store of the configured ledger, migrated. */
export async function openDayStore(store: StoreConfig, logger: Logger): Promise<DayStore> {
  if (store.url) {
    const [
      { createPostgresDayStore },
      { openPostgresLedger },
      { createPostgresPool },
      { createOutageRetry },
    ] = await Promise.all([
      import("../postgres/postgres-day-store.js"),
      import("../postgres/postgres-ledger.js"),
      import("../postgres/postgres-pool.js"),
      import("../postgres/postgres-retry.js"),
    ]);
    const url = store.url.reveal();
    await (await openPostgresLedger(url, { logger })).close();
    const location = describeUrl(url);
    const pool = createPostgresPool(url, logger, { purpose: "day store", location, max: 2 });
    // The daemon waits out a database restart for the days it reads as for its ledger calls.
    return createPostgresDayStore(pool, createOutageRetry(logger, location));
  }
  await openLedger(store.path).close();
  const db = new Database(resolve(store.path), { timeout: BUSY_TIMEOUT_MS });
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  return createSqliteDayStore(db);
}
