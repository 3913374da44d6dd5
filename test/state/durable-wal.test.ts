import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { useDurableWal } from "../../src/state/sqlite/durable-wal.js";
import { Database } from "../../src/state/sqlite/sqlite.js";

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** `synchronous` of a connection to `path` after `prepare` ran on it: 1 NORMAL, 2 FULL. */
function synchronousAfter(path: string, prepare: (db: Database) => void): number {
  const db = new Database(path);
  try {
    prepare(db);
    return db.pragma("synchronous", { simple: true }) as number;
  } finally {
    db.close();
  }
}

describe("useDurableWal", () => {
  it("keeps every commit on disk on a ledger's later starts too, not on its first alone", async () => {
    const dir = await mkdtemp(join(tmpdir(), "durable-wal-"));
    dirs.push(dir);
    const path = join(dir, "ledger.sqlite");
    const walOnly = (db: Database) => db.pragma("journal_mode = WAL");
    // What a ledger had: FULL where it made the file WAL, NORMAL on every start after.
    expect(synchronousAfter(path, walOnly)).toBe(2);
    expect(synchronousAfter(path, walOnly)).toBe(1);
    expect(synchronousAfter(path, useDurableWal)).toBe(2);
    // A setting of the connection, not the file: each start of the ledger must ask again.
    expect(synchronousAfter(path, (db) => db.pragma("journal_mode", { simple: true }))).toBe(1);
  });
});
