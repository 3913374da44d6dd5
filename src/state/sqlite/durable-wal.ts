import type { Database } from "./sqlite.js";

/**
 * Puts the ledger in WAL mode with every commit on disk before it returns (`synchronous =
 * FULL`): the ledger's writes say what was claimed and sent, and a send follows its claim.
 * better-sqlite3 builds SQLite with WAL's default at NORMAL, which a connection opened on a file
 * already in WAL mode takes: its last commits can be lost when the machine stops (not the
 * process), and a digest they recorded as claimed or sent would be sent again. Only a
 * connection that switched a new file to WAL kept FULL, so a ledger was durable on its first
 * start only.
 */
export function useDurableWal(db: Database): void {
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = FULL");
}
