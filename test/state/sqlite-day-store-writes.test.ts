import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/logger.js";
import { type DaySeries, dayFilterKey, type StoredDay } from "../../src/state/day-store.js";
import { openDayStore } from "../../src/state/open/open-day-store.js";

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
