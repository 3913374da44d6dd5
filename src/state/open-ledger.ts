import { mkdirSync } from "node:fs";
import { hostname } from "node:os";
import { dirname, resolve } from "node:path";
import Database from "better-sqlite3";
import { createAlertStateStore } from "./alert-state-store.js";
import { createDaemonLease, isProcessAlive, type LeaseIdentity } from "./daemon-lease.js";
import type { Ledger } from "./ledger.js";
import { migrate } from "./migrations.js";
import { createSlotStore } from "./slot-store.js";

// The SQLite ledger: one file, WAL so one-off commands read and write beside a running
// daemon, a busy timeout so they wait for each other's short transactions instead of failing,
// and the schema migrated at open.

// Transactions here are a few statements long; waiting this long means something is stuck.
const BUSY_TIMEOUT_MS = 5_000;

export interface LedgerOptions {
  /** The clock for created/updated stamps and the lease; tests pass their own. */
  now?: () => Date;
  /** Who this process is, for the daemon lease; defaults to the real pid and host. */
  identity?: Partial<LeaseIdentity>;
}

/** Opens (creating it and its directory if needed) the ledger at `path`, migrated. */
export function openLedger(path: string, options: LedgerOptions = {}): Ledger {
  const now = options.now ?? (() => new Date());
  const location = resolve(path);
  const db = connect(location);
  try {
    migrate(db, location);
  } catch (error) {
    db.close();
    throw error;
  }
  const identity: LeaseIdentity = {
    pid: options.identity?.pid ?? process.pid,
    hostname: options.identity?.hostname ?? hostname(),
    startedAt: options.identity?.startedAt ?? new Date(now().getTime() - process.uptime() * 1000),
    isProcessAlive: options.identity?.isProcessAlive ?? isProcessAlive,
  };
  const slots = createSlotStore(db, now);
  return {
    location,
    ...slots,
    ...createAlertStateStore(db, now, slots.recordSlot),
    ...createDaemonLease(db, location, now, identity),
    close: () => {
      if (db.open) db.close();
    },
  };
}

function connect(location: string): Database.Database {
  let db: Database.Database | undefined;
  try {
    mkdirSync(dirname(location), { recursive: true });
    db = new Database(location, { timeout: BUSY_TIMEOUT_MS });
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.pragma("journal_mode = WAL");
    return db;
  } catch (error) {
    db?.close();
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `cannot open the ledger ${location}: ${reason} — check state.path and that its directory is writable`,
      { cause: error },
    );
  }
}
