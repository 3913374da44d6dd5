import { Writable } from "node:stream";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../../../src/logger.js";
import { createPostgresPool } from "../../../src/state/postgres/postgres-pool.js";
import { isConnectionLoss } from "../../../src/state/postgres/postgres-retry.js";
import { createTestDatabase } from "../../postgres/create-test-database.js";

// A connection the server ends while the pool has handed it out, before its borrower listens:
// pg-pool's own listener is already off it, and an unheard 'error' event ends the process.
// Here the borrower never listens at all, so the pool's listener is all there is.

const pools: pg.Pool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.end()));
});

function capturedLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(JSON.parse(chunk.toString()));
      callback();
    },
  });
  return { logger: createLogger({ destination, pretty: false }), lines };
}

describe("a pool's connection the server ends while it is handed out", () => {
  it("is heard and logged, without the password, and the next query on it fails as a lost connection", async () => {
    const url = new URL(await createTestDatabase());
    const { logger, lines } = capturedLogger();
    const location = `postgres://${url.username}@${url.host}${url.pathname}`;
    const pool = createPostgresPool(url.toString(), logger, {
      purpose: "ledger",
      location,
      max: 2,
    });
    pools.push(pool);
    const borrowed = await pool.connect();
    const { rows } = await borrowed.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
    const ended = new Promise((resolve) => borrowed.once("end", resolve));

    const admin = new pg.Client({ connectionString: url.toString() });
    await admin.connect();
    await admin.query("SELECT pg_terminate_backend($1)", [rows[0]?.pid]);
    await admin.end();
    await ended;

    expect(lines.map((l) => [l.msg, l.ledger, l.err])).toEqual([
      [
        "a ledger connection was lost",
        location,
        "terminating connection due to administrator command",
      ],
    ]);
    const error = await borrowed.query("SELECT 1").catch((e: unknown) => e);
    borrowed.release(true);
    expect(isConnectionLoss(error)).toBe(true);
    // The pool opens a fresh connection for the next caller.
    const { rows: next } = await pool.query<{ one: number }>("SELECT 1 AS one");
    expect(next).toEqual([{ one: 1 }]);
  });
});
