import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LedgerDiskError, LedgerError } from "../../src/errors.js";
import { ledgerProblem, reportingLedgerProblems } from "../../src/state/sqlite/ledger-problem.js";
import { SCHEMA_VERSION } from "../../src/state/sqlite/migrations.js";
import { ledgerExists } from "../../src/state/sqlite/open-ledger.js";
import { Database } from "../../src/state/sqlite/sqlite.js";
import {
  aDirectory,
  aFullLedger,
  damagedPages,
  foreignDatabase,
  newerLedger,
  randomFile,
  truncatedLedger,
  underAFile,
  wrongColumns,
} from "./bad-ledgers.js";
import { useTempLedgers } from "./ledger-builders.js";

/**
 * A state.path that cannot be a ledger is a configuration problem: one LedgerError (exit 2)
 * naming the file and the fix, whether it shows when the file is opened or at the first query.
 */

function caught(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error("expected it to throw");
}

async function rejected(action: Promise<unknown>): Promise<unknown> {
  try {
    await action;
  } catch (error) {
    return error;
  }
  throw new Error("expected it to reject");
}

function expectLedgerError(error: unknown, path: string, fix: RegExp): void {
  expect(error).toBeInstanceOf(LedgerError);
  const { message, exitCode } = error as LedgerError;
  expect(exitCode).toBe(2);
  expect(message).not.toContain("\n");
  expect(message).toContain(path);
  expect(message).toMatch(fix);
}

const cases: [string, (dir: string) => string | Promise<string>, RegExp][] = [
  ["is a directory", aDirectory, /is a directory — point state\.path at a file/],
  ["lies under a regular file", underAFile, /is a file, not a directory — .*state\.path/],
  [
    "is random bytes",
    randomFile,
    /is not an SQLite database, .* — point state\.path at a new file/,
  ],
  ["is a truncated ledger", truncatedLedger, /is damaged .* restore it from a backup/],
  ["is another program's database", foreignDatabase, /tables notes, tags\) — point state\.path/],
  ["has our tables with other columns", wrongColumns, /lacks .*slots\.team.* — restore it/],
  ["was written by a newer version", newerLedger, /newer than .* upgrade insights-reporter/],
];

describe("openLedger, when state.path cannot be a ledger", () => {
  const ledgers = useTempLedgers();

  it.each(cases)("refuses a path that %s, naming it and the fix", async (_, make, fix) => {
    const path = await make(ledgers.dir());
    expectLedgerError(
      caught(() => ledgers.open(path)),
      path,
      fix,
    );
  });

  it("leaves another program's database as it was: no tables of ours added to it", () => {
    const path = foreignDatabase(ledgers.dir());
    const before = readFileSync(path);
    caught(() => ledgers.open(path));
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it("reports a malformed page found by the first query, not only at open", async () => {
    const path = await damagedPages(ledgers.dir());
    const ledger = ledgers.open(path);
    const fix = /is damaged .* restore it from a backup/;
    expectLedgerError(await rejected(ledger.history({ limit: 20 })), path, fix);
    expectLedgerError(await rejected(ledger.getSlot("checkout.daily.0001")), path, fix);
  });

  it("still opens and reads a healthy ledger full of slots", async () => {
    const path = await aFullLedger(ledgers.dir());
    expect(await ledgers.open(path).history({ limit: 3 })).toHaveLength(3);
  });
});

describe("ledgerExists", () => {
  const ledgers = useTempLedgers();

  it("is false where nothing is, and refuses a path under a file instead of saying false", () => {
    expect(ledgerExists(join(ledgers.dir(), "nothing-yet.sqlite"))).toBe(false);
    const path = underAFile(ledgers.dir());
    expectLedgerError(
      caught(() => ledgerExists(path)),
      path,
      /is a file, not a directory/,
    );
  });
});

describe("ledgerProblem", () => {
  const ledgers = useTempLedgers();

  it("names a read-only ledger and the fix, from SQLite's own SQLITE_READONLY", async () => {
    // Root writes through file modes, so a read-only connection is how this test gets the code.
    const path = await aFullLedger(ledgers.dir());
    const db = new Database(path, { readonly: true });
    const error = caught(() => db.pragma(`user_version = ${SCHEMA_VERSION}`));
    db.close();
    expect((error as { code?: string }).code).toBe("SQLITE_READONLY");
    expectLedgerError(ledgerProblem(path, error), path, /read-only .* writable by this user/);
  });

  it("leaves errors that are not about the file alone", () => {
    expect(ledgerProblem("/x/ledger.sqlite", new Error("a bug"))).toBeNull();
    const db = new Database(":memory:");
    const error = caught(() => db.exec("SELECT * FROM nowhere"));
    db.close();
    expect(ledgerProblem("/x/ledger.sqlite", error)).toBeNull();
  });
});

describe("a ledger whose disk is full", () => {
  // SQLite's max_page_count fills a database as a full disk would (SQLITE_FULL), root or not.
  function nearlyFull() {
    const db = new Database(":memory:");
    db.exec("CREATE TABLE t (v TEXT)");
    db.pragma(`max_page_count = ${db.pragma("page_count", { simple: true })}`);
    let room = false;
    const target = {
      write: () => {
        if (room) db.pragma("max_page_count = 1000");
        db.prepare("INSERT INTO t VALUES (?)").run("x".repeat(10_000));
      },
      read: () => db.prepare("SELECT count(*) AS n FROM t").get(),
      reachable: (): string | null => null,
    };
    return { db, target, makeRoom: () => (room = true) };
  }

  it("fails a write with exit 1 and the fix, and makes reachable report it until a write succeeds", () => {
    const { db, target, makeRoom } = nearlyFull();
    const ledger = reportingLedgerProblems(target, "/data/reporter.sqlite");
    const error = (() => {
      try {
        ledger.write();
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(error).toBeInstanceOf(LedgerDiskError);
    expect((error as LedgerDiskError).exitCode).toBe(1);
    expect((error as Error).message).toMatch(
      /^cannot write the ledger \/data\/reporter\.sqlite \(SQLITE_FULL: .*\) — free space on the disk/,
    );
    ledger.read(); // reads still work on a full disk: they say nothing of room
    expect(ledger.reachable()).toMatch(/SQLITE_FULL/);
    makeRoom();
    ledger.write();
    expect(ledger.reachable()).toBeNull();
    db.close();
  });
});
