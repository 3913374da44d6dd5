import { createRequire } from "node:module";
import type BetterSqlite3 from "better-sqlite3";

// The build of better-sqlite3 that opens the reporter's SQLite files. Node 24.19 and later put
// a new `node::ObjectWrap` into every addon compiled against their headers, and its destructor
// aborts the process ("Assertion failed: (env) != nullptr", SIGABRT) when V8 collects a
// statement from one of its own tasks: a daemon idling between fires meets one within seconds
// of its start (nodejs/node#65446; docs/decisions/0009-sqlite-driver-by-node-api.md).
// better-sqlite3 13 is built on Node-API, which has no such destructor, and ships its binaries
// in the package; it asks for Node-API 10, which Node 20 never had (it crashes there), so
// better-sqlite3 12, built from source, stays the driver where Node-API is older. Both have the
// same API.

/**
 * The Node-API version better-sqlite3 13 is built for (the test ledger fixture
 * test/state/fixtures/hold-write-lock.mjs, plain node, makes the same choice).
 */
export const NODE_API_OF_13 = 10;

export type SqliteDriverPackage = "better-sqlite3" | "better-sqlite3-napi";

/** The package to load on a runtime offering `nodeApi` (`process.versions.napi`). */
export function sqliteDriverFor(nodeApi: string | undefined): SqliteDriverPackage {
  return Number.parseInt(nodeApi ?? "", 10) >= NODE_API_OF_13
    ? "better-sqlite3-napi"
    : "better-sqlite3";
}

/** The package this process opens SQLite files with. */
export const SQLITE_DRIVER = sqliteDriverFor(process.versions.napi);

/** better-sqlite3's `Database`, from the build that runs safely on this Node. */
export const Database: typeof BetterSqlite3 = createRequire(import.meta.url)(SQLITE_DRIVER);

export type Database = BetterSqlite3.Database;
