import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/logger.js";
import { type DaySeries, dayFilterKey, type StoredDay } from "../../src/state/day-store.js";
import { openDayStore } from "../../src/state/open/open-day-store.js";
import { openLedger } from "../../src/state/sqlite/open-ledger.js";
import { Database } from "../../src/state/sqlite/sqlite.js";
import { createSqliteDayStore } from "../../src/state/sqlite/sqlite-day-store.js";

// The SQLite day store commits writes that come together as one transaction: what was written
// before a read, a forget or a close is there for it all the same, as when each write committed
// on its own.

const logger = createLogger({ level: "silent" });
const dir = mkdtempSync(join(tmpdir(), "day-store-writes-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
const open = (path = join(dir, `ledger-${files++}.sqlite`)) =>
  openDayStore({ path, url: null }, logger).then((store) => ({ store, path }));

function series(projectId: string): DaySeries {
  return {
    projectId,
    filters: dayFilterKey({ branch: null, author: null, tags: [] }),
    timezone: "Etc/UTC",
  };
}

function day(date: string, passed: number): StoredDay {
  return {
    date,
    runs: { passed, failed: 0, meanDurationMs: 1000 },
    tests: { passed, failed: 0, skipped: 0, flaky: 0, timedOut: 0 },
    fetchedAt: new Date("2026-11-28T09:00:00Z"),
  };
}

describe("the SQLite day store's writes", () => {
  it("keeps every series' days written at once", async () => {
    const { store } = await open();
    const ids = ["p1", "p2", "p3", "p4"];
    await Promise.all(ids.map((id, i) => store.writeDays(series(id), [day("2026-11-27", i)])));
    for (const [i, id] of ids.entries()) {
      expect(await store.readDays(series(id), "2026-11-27", "2026-11-27")).toEqual([
        day("2026-11-27", i),
      ]);
    }
    await store.close();
  });

  it("shows a read the days written before it, though the write was not awaited", async () => {
    const { store } = await open();
    const written = store.writeDays(series("p1"), [day("2026-11-27", 5)]);
    expect(await store.readDays(series("p1"), "2026-11-27", "2026-11-27")).toEqual([
      day("2026-11-27", 5),
    ]);
    await written;
    await store.close();
  });

  it("forgets days written before the forget, though the write was not awaited", async () => {
    const { store } = await open();
    const written = store.writeDays(series("p1"), [day("2024-01-01", 1), day("2026-11-27", 2)]);
    expect(await store.forgetBefore("2025-01-01")).toBe(1);
    await written;
    expect(await store.coverage()).toEqual([
      { ...series("p1"), first: "2026-11-27", last: "2026-11-27", days: 1 },
    ]);
    await store.close();
  });

  it("fails only the write SQLite cannot bind; the others committed with it are kept", async () => {
    const { store } = await open();
    const unbindable = {
      ...day("2026-11-27", 1),
      runs: { passed: {}, failed: 0, meanDurationMs: 1 },
    };
    const [good, bad] = await Promise.allSettled([
      store.writeDays(series("p1"), [day("2026-11-27", 7)]),
      store.writeDays(series("p2"), [unbindable as unknown as StoredDay]),
    ]);
    expect(good.status).toBe("fulfilled");
    // better-sqlite3 takes an object among the values for named parameters, and finds too few.
    expect(bad.status === "rejected" && bad.reason).toBeInstanceOf(RangeError);
    expect(await store.readDays(series("p1"), "2026-11-27", "2026-11-27")).toEqual([
      day("2026-11-27", 7),
    ]);
    await store.close();
  });

  it("fails every write committed together at once, not each again, when the file is locked elsewhere", async () => {
    const path = join(dir, `ledger-${files++}.sqlite`);
    await openLedger(path).close();
    const holder = new Database(path);
    holder.exec("BEGIN IMMEDIATE");
    const store = createSqliteDayStore(new Database(path, { timeout: 0 }));
    const outcomes = await Promise.allSettled([
      store.writeDays(series("p1"), [day("2026-11-27", 1)]),
      store.writeDays(series("p2"), [day("2026-11-27", 2)]),
    ]);
    holder.exec("ROLLBACK");
    holder.close();
    const reasons = outcomes.map((o) => (o.status === "rejected" ? o.reason : null));
    expect(reasons.map((r) => (r as { code?: string } | null)?.code)).toEqual([
      "SQLITE_BUSY",
      "SQLITE_BUSY",
    ]);
    // One error for both: the batch was not committed again write by write.
    expect(reasons[0]).toBe(reasons[1]);
    await store.close();
  });

  it("commits a write not yet awaited when it closes", async () => {
    const { store, path } = await open();
    const written = store.writeDays(series("p1"), [day("2026-11-27", 3)]);
    await store.close();
    await written;
    const reopened = (await open(path)).store;
    expect(await reopened.readDays(series("p1"), "2026-11-27", "2026-11-27")).toEqual([
      day("2026-11-27", 3),
    ]);
    await reopened.close();
  });
});
