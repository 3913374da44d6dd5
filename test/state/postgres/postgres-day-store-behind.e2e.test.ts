import pg from "pg";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../../src/logger.js";
import { dayFilterKey, type StoredDay } from "../../../src/state/day-store.js";
import { createPostgresDayStore } from "../../../src/state/postgres/postgres-day-store.js";
import { openPostgresLedger } from "../../../src/state/postgres/postgres-ledger.js";
import { createTestDatabase } from "../../postgres/create-test-database.js";

// PostgreSQL writes each day store write at once, but a daemon's digests do not wait for it: a
// read of the series, the release of a fetch claim and close must wait for it instead. The
// pool here holds the store's INSERT until the test lets it go, and logs each statement as it
// reaches the database, so the order is what is checked, not how fast anything was.

const SERIES = {
  projectId: "p1",
  filters: dayFilterKey({ branch: null, author: null, tags: [] }),
  timezone: "Europe/Berlin",
};
const DAY: StoredDay = {
  date: "2026-10-01",
  runs: { passed: 3, failed: 1, meanDurationMs: 1000 },
  tests: { passed: 30, failed: 2, skipped: 0, flaky: 1, timedOut: 0 },
  fetchedAt: new Date("2026-10-05T00:00:00Z"),
};

/** A pool that holds INSERTs until `letGo`, logging each statement's verb as it goes out. */
function heldPool(url: string) {
  const real = new pg.Pool({ connectionString: url, max: 2 });
  const sent: string[] = [];
  let letGo = () => {};
  const gate = new Promise<void>((resolve) => {
    letGo = resolve;
  });
  const pool = {
    async query(text: string, values?: unknown[]) {
      const verb = text.trim().split(/\s+/)[0] ?? "";
      if (verb === "INSERT") await gate;
      sent.push(verb);
      return real.query(text, values);
    },
    end: async () => {
      sent.push("END");
      await real.end();
    },
  } as unknown as pg.Pool;
  return { pool, sent, letGo };
}

/** Lets every pending callback and promise run (a statement not held goes out by then). */
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe("the PostgreSQL day store's writes nobody waits on", () => {
  it("are sent before a read of their series, a claim's release and the end of the pool", async () => {
    const url = await createTestDatabase();
    await (await openPostgresLedger(url, { logger: createLogger({ level: "silent" }) })).close();
    const { pool, sent, letGo } = heldPool(url);
    const store = createPostgresDayStore(pool);
    const written = store.writeDays(SERIES, [DAY], { commitWithinMs: 1_000 });
    const read = store.readDays(SERIES, "2026-10-01", "2026-10-01");
    const released = store.releaseFetch(SERIES, "2026-10-01", "me");
    const other = store.readDays({ ...SERIES, projectId: "p2" }, "2026-10-01", "2026-10-01");
    await other;
    await turn();
    // Only the other series' read went out while the write was held.
    expect(sent).toEqual(["SELECT"]);
    letGo();
    await Promise.all([written, released]);
    expect(await read).toEqual([DAY]);
    expect(sent.slice(0, 2)).toEqual(["SELECT", "INSERT"]);
    expect(sent.slice(2).sort()).toEqual(["DELETE", "SELECT"]);
    const late = store.writeDays(SERIES, [{ ...DAY, date: "2026-10-02" }], {
      commitWithinMs: 1_000,
    });
    await store.close();
    await late;
    expect(sent.slice(-2)).toEqual(["INSERT", "END"]);
  });
});
