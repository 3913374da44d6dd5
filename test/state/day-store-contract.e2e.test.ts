import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../../src/logger.js";
import { Secret } from "../../src/secret.js";
import {
  type DaySeries,
  type DayStore,
  dayFilterKey,
  type StoredDay,
} from "../../src/state/day-store.js";
import { openDayStore } from "../../src/state/open/open-day-store.js";
import { createTestDatabase } from "../postgres/create-test-database.js";

// One contract, two stores: the day store in an SQLite ledger file and in PostgreSQL.

const logger = createLogger({ level: "silent" });
const opened: DayStore[] = [];
const dirs: string[] = [];

async function sqlite(): Promise<() => Promise<DayStore>> {
  const dir = mkdtempSync(join(tmpdir(), "day-store-"));
  dirs.push(dir);
  const path = join(dir, "ledger.sqlite");
  return async () => track(await openDayStore({ path, url: null }, logger));
}

async function postgres(): Promise<() => Promise<DayStore>> {
  const url = await createTestDatabase();
  return async () => track(await openDayStore({ path: "", url: new Secret(url) }, logger));
}

function track(store: DayStore): DayStore {
  opened.push(store);
  return store;
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const SERIES: DaySeries = {
  projectId: "p1",
  filters: dayFilterKey({ branch: "main", author: null, tags: ["b", "a"] }),
  timezone: "Europe/Berlin",
};

function day(date: string, passed: number, fetchedAt: string): StoredDay {
  return {
    date,
    runs: { passed, failed: 2, meanDurationMs: 1234.5 },
    tests: { passed: passed * 10, failed: 3, skipped: 1, flaky: 2, timedOut: 0 },
    fetchedAt: new Date(fetchedAt),
  };
}

describe.each([
  ["SQLite", sqlite],
  ["PostgreSQL", postgres],
])("the day store in %s", (_name, create) => {
  it("gives back the days written, counts as counts, an empty day as null", async () => {
    const store = await (await create())();
    const empty: StoredDay = {
      date: "2026-10-02",
      runs: null,
      tests: null,
      fetchedAt: new Date("2026-10-05T00:00:00Z"),
    };
    await store.writeDays(SERIES, [day("2026-10-01", 7, "2026-10-05T00:00:00Z"), empty]);
    expect(await store.readDays(SERIES, "2026-09-30", "2026-10-03")).toEqual([
      day("2026-10-01", 7, "2026-10-05T00:00:00Z"),
      empty,
    ]);
  });

  it("keeps series apart by filters and zone", async () => {
    const store = await (await create())();
    await store.writeDays(SERIES, [day("2026-10-01", 7, "2026-10-05T00:00:00Z")]);
    const auckland = { ...SERIES, timezone: "Pacific/Auckland" };
    expect(await store.readDays(auckland, "2026-10-01", "2026-10-01")).toEqual([]);
    const sameTagsOtherOrder = {
      ...SERIES,
      filters: dayFilterKey({ branch: "main", author: null, tags: ["a", "b"] }),
    };
    expect(await store.readDays(sameTagsOtherOrder, "2026-10-01", "2026-10-01")).toHaveLength(1);
  });

  it("replaces a day with a later fetch, never with an earlier one", async () => {
    const store = await (await create())();
    await store.writeDays(SERIES, [day("2026-10-01", 7, "2026-10-02T00:00:00Z")]);
    await store.writeDays(SERIES, [day("2026-10-01", 9, "2026-10-05T00:00:00Z")]);
    await store.writeDays(SERIES, [day("2026-10-01", 8, "2026-10-03T00:00:00Z")]);
    expect(await store.readDays(SERIES, "2026-10-01", "2026-10-01")).toEqual([
      day("2026-10-01", 9, "2026-10-05T00:00:00Z"),
    ]);
  });

  it("forgets the days of every series dated before a date, and keeps the rest", async () => {
    const store = await (await create())();
    const auckland = { ...SERIES, timezone: "Pacific/Auckland" };
    for (const series of [SERIES, auckland]) {
      await store.writeDays(series, [
        day("2024-11-24", 1, "2024-11-30T00:00:00Z"),
        day("2024-11-25", 2, "2024-11-30T00:00:00Z"),
        day("2026-11-24", 3, "2026-11-25T00:00:00Z"),
      ]);
    }
    expect(await store.forgetBefore("2024-11-25")).toBe(2);
    for (const series of [SERIES, auckland]) {
      expect((await store.readDays(series, "2024-01-01", "2026-12-31")).map((d) => d.date)).toEqual(
        ["2024-11-25", "2026-11-24"],
      );
    }
    expect(await store.forgetBefore("2024-11-25")).toBe(0);
  });

  it("stores each day once when two processes write the same days at once", async () => {
    const connect = await create();
    const [a, b] = await Promise.all([connect(), connect()]);
    const days = Array.from({ length: 90 }, (_, i) =>
      day(`2026-07-${String((i % 30) + 1).padStart(2, "0")}`, i, "2026-10-05T00:00:00Z"),
    ).filter((d, i, all) => all.findIndex((o) => o.date === d.date) === i);
    await Promise.all([a.writeDays(SERIES, days), b.writeDays(SERIES, days)]);
    expect(await a.coverage()).toEqual([
      { ...SERIES, first: "2026-07-01", last: "2026-07-30", days: 30 },
    ]);
  });

  it("lets a write nobody waits on be read by its series at once, counted, and kept on close", async () => {
    const connect = await create();
    const store = await connect();
    const other = { ...SERIES, projectId: "p2" };
    // Not awaited, as a daemon's digests write: a second long enough to outlast the test.
    const kept = [
      store.writeDays(SERIES, [day("2026-10-01", 7, "2026-10-05T00:00:00Z")], {
        commitWithinMs: 60_000,
      }),
      store.writeDays(other, [day("2026-10-02", 8, "2026-10-05T00:00:00Z")], {
        commitWithinMs: 60_000,
      }),
    ];
    expect(await store.readDays(SERIES, "2026-10-01", "2026-10-01")).toEqual([
      day("2026-10-01", 7, "2026-10-05T00:00:00Z"),
    ]);
    expect((await store.coverage()).map((c) => c.projectId)).toEqual(["p1", "p2"]);
    const late = store.writeDays(other, [day("2026-10-03", 9, "2026-10-05T00:00:00Z")], {
      commitWithinMs: 60_000,
    });
    opened.splice(opened.indexOf(store), 1);
    await store.close();
    await Promise.all([...kept, late]);
    const reopened = await connect();
    expect((await reopened.readDays(other, "2026-10-01", "2026-10-31")).map((d) => d.date)).toEqual(
      ["2026-10-02", "2026-10-03"],
    );
  });

  it("commits a series' waiting writes before it lets a fetch claim of it go", async () => {
    const connect = await create();
    const [store, other] = await Promise.all([connect(), connect()]);
    expect(await store.claimFetch(SERIES, "2026-10-01", "me", 60_000)).toBe("won");
    const written = store.writeDays(SERIES, [day("2026-10-01", 7, "2026-10-05T00:00:00Z")], {
      commitWithinMs: 60_000,
    });
    await store.releaseFetch(SERIES, "2026-10-01", "me");
    // Whoever waited on the claim finds the days fetched under it.
    expect(await other.claimFetch(SERIES, "2026-10-01", "you", 60_000)).toBe("won");
    expect(await other.readDays(SERIES, "2026-10-01", "2026-10-01")).toEqual([
      day("2026-10-01", 7, "2026-10-05T00:00:00Z"),
    ]);
    await written;
  });
});
