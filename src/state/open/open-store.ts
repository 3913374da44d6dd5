import type { Logger } from "../../logger.js";
import type { Secret } from "../../secret.js";
import type { Ledger } from "../ledger.js";
import { ledgerExists } from "../sqlite/ledger-exists.js";
import type { LedgerOptions } from "../sqlite/open-ledger.js";

// Which store the config names: an SQLite file (`state.path`, the default: one daemon) or a
// PostgreSQL database (`state.url`: several replicas share it). Commands open the ledger here.
// The PostgreSQL side (the `pg` driver, ~10 MB) is loaded only when the config names a database,
// the SQLite side (better-sqlite3) only when a ledger is opened.

/** A config's `state` as far as the store goes. */
export interface StoreConfig {
  path: string;
  url: Secret | null;
}

export interface OpenStoreOptions extends LedgerOptions {
  logger: Logger;
}

/** Opens the configured ledger, migrated (see `openLedger` and `openPostgresLedger`). */
export async function openStore(store: StoreConfig, options: OpenStoreOptions): Promise<Ledger> {
  if (store.url) {
    const { openPostgresLedger } = await import("../postgres/postgres-ledger.js");
    return openPostgresLedger(store.url.reveal(), { logger: options.logger });
  }
  const { openLedger } = await import("../sqlite/open-ledger.js");
  return openLedger(store.path, options);
}

/** Whether there is a ledger to read: a database always may have one; a file only if it is there. */
export function storeExists(store: StoreConfig): boolean {
  return store.url !== null || ledgerExists(store.path);
}
