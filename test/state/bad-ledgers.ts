import { randomBytes } from "node:crypto";
import {
  closeSync,
  mkdirSync,
  openSync,
  statSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { SCHEMA_VERSION } from "../../src/state/sqlite/migrations.js";
import { openLedger } from "../../src/state/sqlite/open-ledger.js";
import { Database } from "../../src/state/sqlite/sqlite.js";
import { aSlot } from "./ledger-builders.js";

/**
 * state.path values that cannot be a ledger, each made for real in `dir`: what a user ends up
 * with after a typo, a crash, a disk full, a restore from the wrong backup.
 */

/** A ledger path that is a directory. */
export function aDirectory(dir: string): string {
  const path = join(dir, "ledger.sqlite");
  mkdirSync(path);
  return path;
}

/** A ledger path whose parent is a regular file. */
export function underAFile(dir: string): string {
  writeFileSync(join(dir, "state"), "a file where a directory should be\n");
  return join(dir, "state", "ledger.sqlite");
}

/** A file of random bytes. */
export function randomFile(dir: string): string {
  const path = join(dir, "ledger.sqlite");
  writeFileSync(path, randomBytes(16 * 1024));
  return path;
}

/** A real ledger with `slots` slots in it, closed. */
export async function aFullLedger(dir: string, slots = 300): Promise<string> {
  const path = join(dir, "ledger.sqlite");
  const ledger = openLedger(path);
  for (let day = 0; day < slots; day++) {
    const key = `checkout.daily.${String(day).padStart(4, "0")}`;
    await ledger.recordSlot(
      aSlot({ key, fireAt: new Date(Date.UTC(2026, 0, 1) + day * 86_400_000) }),
    );
  }
  await ledger.close();
  return path;
}

/** The bytes an empty ledger of this version takes: its header, schema and tables' roots. */
async function schemaBytes(dir: string): Promise<number> {
  const empty = join(dir, "empty", "ledger.sqlite");
  await openLedger(empty).close();
  return statSync(empty).size;
}

/** A real ledger cut to half its size, as a copy interrupted midway leaves it. */
export async function truncatedLedger(dir: string): Promise<string> {
  const path = await aFullLedger(dir);
  truncateSync(path, Math.floor(statSync(path).size / 2));
  return path;
}

/**
 * A real ledger whose header and schema are intact but whose data pages are overwritten: it
 * opens and migrates, and is found malformed only by the first query. The schema and each
 * table's root come first in the file (once the schema outgrew page 1, it spilled onto the
 * next pages), so the damage starts past them, where the slots written later live.
 */
export async function damagedPages(dir: string): Promise<string> {
  const path = await aFullLedger(dir);
  const size = statSync(path).size;
  // An empty ledger's size is its schema's pages, whatever the migrations made.
  const from = await schemaBytes(dir);
  const fd = openSync(path, "r+");
  try {
    writeSync(fd, Buffer.alloc(size - from, 0xff), 0, size - from, from);
  } finally {
    closeSync(fd);
  }
  return path;
}

/** A valid SQLite database of some other program. */
export function foreignDatabase(dir: string): string {
  return withDatabase(join(dir, "ledger.sqlite"), (db) => {
    db.exec(
      "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); CREATE TABLE tags (name TEXT)",
    );
    db.prepare("INSERT INTO notes (body) VALUES (?)").run("keep me");
  });
}

/** A ledger of our schema version whose slots table was changed by hand: it lacks our columns. */
export async function wrongColumns(dir: string): Promise<string> {
  const path = join(dir, "ledger.sqlite");
  await openLedger(path).close();
  return withDatabase(path, (db) => {
    db.exec("DROP TABLE slots; CREATE TABLE slots (key TEXT PRIMARY KEY, payload TEXT)");
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  });
}

/** A ledger written by a newer insights-reporter. */
export function newerLedger(dir: string): string {
  return withDatabase(join(dir, "ledger.sqlite"), (db) => {
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
  });
}

function withDatabase(path: string, build: (db: Database) => void): string {
  const db = new Database(path);
  try {
    build(db);
  } finally {
    db.close();
  }
  return path;
}
