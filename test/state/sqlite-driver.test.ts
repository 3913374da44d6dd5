import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  Database,
  NODE_API_OF_13,
  SQLITE_DRIVER,
  sqliteDriverFor,
} from "../../src/state/sqlite/sqlite.js";

// Which better-sqlite3 opens the SQLite files: 13 (Node-API) where the runtime has Node-API 10,
// since 12 aborts on Node 24.19 and later when V8 collects a statement; 12 where it has not.

const requireHere = createRequire(import.meta.url);

describe("the SQLite driver", () => {
  it.each([
    ["9", "better-sqlite3"], // Node 20, and 22 before 22.14
    ["10", "better-sqlite3-napi"], // Node 22.14 and later, 24
    ["11", "better-sqlite3-napi"],
    [undefined, "better-sqlite3"],
    ["1e1", "better-sqlite3"],
  ])("Node-API %s opens files with %s", (nodeApi, driver) => {
    expect(sqliteDriverFor(nodeApi)).toBe(driver);
  });

  it("is better-sqlite3 13 on this runtime exactly when it offers Node-API 10", () => {
    const { version } = requireHere(`${SQLITE_DRIVER}/package.json`) as { version: string };
    const major = Number(version.split(".")[0]);
    expect(major).toBe(Number(process.versions.napi) >= 10 ? 13 : 12);
  });

  it("is chosen alike by the ledger fixture that runs in plain node", () => {
    const fixture = readFileSync(
      join(import.meta.dirname, "fixtures", "hold-write-lock.mjs"),
      "utf8",
    );
    expect(fixture).toContain(`Number(process.versions.napi) >= ${NODE_API_OF_13}`);
  });

  it("opens a database, runs a transaction and reads it back", () => {
    const db = new Database(":memory:");
    try {
      db.exec("CREATE TABLE t (n INTEGER)");
      const insert = db.prepare("INSERT INTO t VALUES (?)");
      db.transaction(() => {
        for (let n = 1; n <= 3; n++) insert.run(n);
      })();
      expect(db.prepare("SELECT sum(n) AS total FROM t").get()).toEqual({ total: 6 });
      expect(db.pragma("user_version", { simple: true })).toBe(0);
    } finally {
      db.close();
    }
  });
});
