import { mkdirSync, statSync } from "node:fs";
import { hostname } from "node:os";
import { dirname, resolve } from "node:path";
import type { Ledger, SyncLedger } from "../ledger.js";
import { createAlertStateStore } from "./alert-state-store.js";
import { asyncLedger } from "./async-ledger.js";
import { createDaemonLease, isProcessAlive, type LeaseIdentity } from "./daemon-lease.js";
import { useDurableWal } from "./durable-wal.js";
import { createJobFirstSeenStore } from "./job-first-seen.js";
import { watchLedgerFile } from "./ledger-file.js";
import { directoryError, ledgerProblem, reportingLedgerProblems } from "./ledger-problem.js";
import { migrate } from "./migrations.js";
import { createSlotStore } from "./slot-store.js";
import { Database } from "./sqlite.js";
import { createAcknowledgementStore } from "./sqlite-acknowledgements.js";
import { createIncidentStore } from "./sqlite-incidents.js";
import { createSilenceStore } from "./sqlite-silences.js";

export { ledgerExists } from "./ledger-exists.js";

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

/**
 * Opens (creating it and its directory if needed) the ledger at `path`, migrated. A file that
 * cannot be the ledger is a LedgerError, whether it shows here or at a later query.
 */
export function openLedger(path: string, options: LedgerOptions = {}): Ledger {
  const location = resolve(path);
  try {
    return asyncLedger(reportingLedgerProblems(openSqliteLedger(location, options), location));
  } catch (error) {
    throw ledgerProblem(location, error) ?? error;
  }
}

function openSqliteLedger(location: string, options: LedgerOptions): SyncLedger {
  const now = options.now ?? (() => new Date());
  const db = connect(location);
  try {
    migrate(db, location);
    // After migrating: a file refused above (another program's) is left in its own mode.
    useDurableWal(db);
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
  const fileProblem = watchLedgerFile(location);
  return {
    location,
    shared: false,
    fileProblem,
    reachable: () => fileProblem() ?? readProblem(() => slots.getSlot("")),
    ...slots,
    ...createAlertStateStore(db, now, slots.recordSlot),
    ...createJobFirstSeenStore(db),
    ...createIncidentStore(db, now, slots.recordSlot),
    ...createSilenceStore(db),
    ...createAcknowledgementStore(db),
    ...createDaemonLease(db, location, now, identity),
    close: () => {
      if (db.open) db.close();
    },
  };
}

/** What a read throws, in words; null when it answers. */
function readProblem(read: () => unknown): string | null {
  try {
    read();
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

function connect(location: string): Database {
  if (statSync(location, { throwIfNoEntry: false })?.isDirectory()) throw directoryError(location);
  mkdirSync(dirname(location), { recursive: true });
  const db = new Database(location, { timeout: BUSY_TIMEOUT_MS });
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
