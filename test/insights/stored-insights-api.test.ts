import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { LookbackError } from "../../src/errors.js";
import { type RunningEmulator, startEmulator } from "../../src/insights/emulator/start-emulator.js";
import { withDayStore } from "../../src/insights/stored-insights-api.js";
import type { InsightsApi } from "../../src/insights/types.js";
import { createLogger } from "../../src/logger.js";
import { datesIn } from "../../src/periods/calendar-date.js";
import { parseRetention } from "../../src/periods/retention.js";
import { type DayStore, dayFilterKey } from "../../src/state/day-store.js";
import { openDayStore } from "../../src/state/open/open-day-store.js";
import { query, rejection, TEST_KEY, testClient } from "./client-builders.js";

// The day store in front of the emulator, whose today moves with the test's clock: the days
// fetched are asked once once final, still answer after the API's lookback has passed them,
// and days within settle_after are asked again. Requests are counted in the emulator's log.

const H48 = 48 * 3_600_000;
let clock = Date.parse("2026-07-20T10:00:00Z");
let emulator: RunningEmulator;
let store: DayStore;
let dir: string;

beforeAll(async () => {
  emulator = await startEmulator({ now: () => new Date(clock), key: TEST_KEY, projects: 2 });
});
afterAll(async () => {
  await emulator.close();
});
beforeEach(async () => {
  clock = Date.parse("2026-07-20T10:00:00Z");
  dir = mkdtempSync(join(tmpdir(), "stored-insights-"));
  store = await openDayStore(
    { path: join(dir, "ledger.sqlite"), url: null },
    createLogger({ level: "silent" }),
  );
  emulator.requestLog.length = 0;
  return async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  };
});

function apis(): { plain: InsightsApi; stored: InsightsApi } {
  const { client } = testClient(emulator.url, { now: () => clock });
  return {
    plain: client,
    stored: withDayStore(client, { days: async () => store, now: () => clock, settleAfterMs: H48 }),
  };
}

const projectId = () => emulator.projects[0]?.id ?? "";
const insightsRequests = () =>
  emulator.requestLog.filter((request) => request.path.endsWith("/insights"));
const JULY = query({ startDate: "2026-07-01", endDate: "2026-07-14", timezone: "Europe/Berlin" });

describe("insights behind the day store", () => {
  it("answers an old range from the store, with the API's figures, once the API refuses it", async () => {
    const { plain, stored } = apis();
    const fromApi = await plain.getInsights(projectId(), JULY);
    await stored.getInsights(projectId(), JULY);

    clock = Date.parse("2026-11-20T10:00:00Z"); // four months on: July is past the lookback
    expect(await rejection(plain.getInsights(projectId(), JULY))).toBeInstanceOf(LookbackError);
    emulator.requestLog.length = 0;
    const fromStore = await stored.getInsights(projectId(), JULY);
    expect(insightsRequests()).toEqual([]);
    expect(fromStore.days).toEqual(fromApi.days);
    expect(fromStore.overall.tests).toEqual(fromApi.overall.tests);
    expect({ ...fromStore.overall.runs, meanDurationMs: null }).toEqual({
      ...fromApi.overall.runs,
      meanDurationMs: null,
    });
    expect(
      Math.abs(
        (fromStore.overall.runs.meanDurationMs ?? 0) - (fromApi.overall.runs.meanDurationMs ?? 0),
      ),
    ).toBeLessThan(1);
  });

  it("names the days neither the API nor the store has, and answers the rest from the store", async () => {
    const { plain, stored } = apis();
    const fromApi = await plain.getInsights(projectId(), JULY);
    await stored.getInsights(projectId(), JULY);

    clock = Date.parse("2026-11-20T10:00:00Z"); // four months on: June and July are past the lookback
    const lateJune = { ...JULY, startDate: "2026-06-28", endDate: "2026-07-03" };
    const answer = await stored.getInsights(projectId(), lateJune);
    expect(answer.missingDays).toEqual(["2026-06-28", "2026-06-29", "2026-06-30"]);
    const held = fromApi.days.filter((day) => day.date <= "2026-07-03");
    expect(answer.days).toEqual(held);
    expect(answer.overall.tests.failed).toBe(
      held.reduce((sum, day) => sum + (day.tests?.failed ?? 0), 0),
    );
    expect(answer.overall.runs.passed).toBe(
      held.reduce((sum, day) => sum + (day.runs?.passed ?? 0), 0),
    );
  });

  it("still refuses a range beyond the lookback of which the store holds no day", async () => {
    const { stored } = apis();
    await stored.getInsights(projectId(), JULY);
    clock = Date.parse("2026-11-20T10:00:00Z");
    const june = { ...JULY, startDate: "2026-06-01", endDate: "2026-06-07" };
    expect(await rejection(stored.getInsights(projectId(), june))).toBeInstanceOf(LookbackError);
  });

  it("asks the API for the part of a range its lookback still serves, and names the days before it", async () => {
    const { plain, stored } = apis();
    await stored.getInsights(projectId(), { ...JULY, endDate: "2026-07-05" });
    clock = Date.parse("2026-10-10T10:00:00Z"); // the API serves from 07-10 on
    const served = { ...JULY, startDate: "2026-07-10", endDate: "2026-07-20" };
    const fromApi = await plain.getInsights(projectId(), served);
    const answer = await stored.getInsights(projectId(), {
      ...JULY,
      startDate: "2026-06-28",
      endDate: "2026-07-20",
    });
    expect(answer.missingDays).toEqual([
      ...datesIn({ start: "2026-06-28", end: "2026-06-30" }),
      ...datesIn({ start: "2026-07-06", end: "2026-07-09" }),
    ]);
    expect(answer.days.map((day) => day.date)).toEqual(
      datesIn({ start: "2026-07-01", end: "2026-07-05" }).concat(
        datesIn({ start: "2026-07-10", end: "2026-07-20" }),
      ),
    );
    expect(answer.days.slice(5)).toEqual(fromApi.days);
  });

  it("asks nothing before the API's lookback: a chart's window reaching past it costs no request", async () => {
    // 2026-11-28: the API serves from 08-28 on. The store holds every day it serves, as a
    // backfill leaves it; a 28-day digest's 16-week chart asks from 08-08.
    clock = Date.parse("2026-11-28T08:00:00Z");
    const { stored } = apis();
    await stored.getInsights(projectId(), {
      ...JULY,
      timezone: "Etc/UTC",
      startDate: "2026-08-28",
      endDate: "2026-11-28",
    });
    clock = Date.parse("2026-11-28T09:00:00Z");
    emulator.requestLog.length = 0;
    const chart = { ...JULY, timezone: "Etc/UTC", startDate: "2026-08-08", endDate: "2026-11-27" };
    const answer = await stored.getInsights(projectId(), chart);
    // The recent window alone, as every digest and alert of the run asks it.
    expect(insightsRequests().map((r) => [r.query.start_date, r.query.end_date])).toEqual([
      ["2026-11-24", "2026-11-28"],
    ]);
    expect(answer.missingDays).toEqual(datesIn({ start: "2026-08-08", end: "2026-08-27" }));
    expect(answer.days[0]?.date).toBe("2026-08-28");
    // Again, from another digest: the days before the lookback are still not asked.
    emulator.requestLog.length = 0;
    await stored.getInsights(projectId(), chart);
    expect(insightsRequests()).toEqual([]);
  });

  it("asks the API's first served day alone, not a refused range and then that day", async () => {
    clock = Date.parse("2026-11-28T09:00:00Z");
    const { stored } = apis();
    const edge = { ...JULY, timezone: "Etc/UTC", startDate: "2026-08-08", endDate: "2026-08-28" };
    const answer = await stored.getInsights(projectId(), edge);
    expect(insightsRequests().map((r) => [r.query.start_date, r.query.end_date])).toEqual([
      ["2026-08-28", "2026-08-28"],
    ]);
    expect(answer.days.map((day) => day.date)).toEqual(["2026-08-28"]);
    expect(answer.missingDays).toEqual(datesIn({ start: "2026-08-08", end: "2026-08-27" }));
  });

  it("deletes the days history.keep no longer keeps, once a day", async () => {
    const { client } = testClient(emulator.url, { now: () => clock });
    const keep = parseRetention("30d");
    const stored = withDayStore(client, {
      days: async () => store,
      now: () => clock,
      settleAfterMs: H48,
      keep,
    });
    await stored.getInsights(projectId(), JULY);
    clock = Date.parse("2026-08-10T10:00:00Z"); // keeps 07-11 on
    await stored.getInsights(projectId(), {
      ...JULY,
      startDate: "2026-08-01",
      endDate: "2026-08-05",
    });
    const series = {
      projectId: projectId(),
      filters: dayFilterKey(JULY),
      timezone: "Europe/Berlin",
    };
    const held = await store.readDays(series, "2026-07-01", "2026-07-14");
    expect(held.map((day) => day.date)).toEqual(
      datesIn({ start: "2026-07-11", end: "2026-07-14" }),
    );
    // An old day written back the same day stays until the next day's first request.
    const old = { date: "2026-07-01", runs: null, tests: null, fetchedAt: new Date(clock) };
    await store.writeDays(series, [old]);
    await stored.getInsights(projectId(), {
      ...JULY,
      startDate: "2026-08-01",
      endDate: "2026-08-05",
    });
    expect(await store.readDays(series, "2026-07-01", "2026-07-01")).toHaveLength(1);
    clock = Date.parse("2026-08-11T10:00:00Z");
    await stored.getInsights(projectId(), {
      ...JULY,
      startDate: "2026-08-01",
      endDate: "2026-08-05",
    });
    expect(await store.readDays(series, "2026-07-01", "2026-07-11")).toEqual([]);
  });

  it("never asks again for a settled day it holds", async () => {
    const { stored } = apis();
    await stored.getInsights(projectId(), JULY);
    expect(insightsRequests()).toHaveLength(1);
    await stored.getInsights(projectId(), JULY);
    await stored.getInsights(projectId(), {
      ...JULY,
      startDate: "2026-07-05",
      endDate: "2026-07-10",
    });
    expect(insightsRequests()).toHaveLength(1);
  });

  it("asks only for the days it lacks, in one range per gap", async () => {
    const { stored } = apis();
    await stored.getInsights(projectId(), {
      ...JULY,
      startDate: "2026-07-05",
      endDate: "2026-07-07",
    });
    emulator.requestLog.length = 0;
    await stored.getInsights(projectId(), JULY);
    expect(insightsRequests().map((r) => [r.query.start_date, r.query.end_date])).toEqual(
      expect.arrayContaining([
        ["2026-07-01", "2026-07-04"],
        ["2026-07-08", "2026-07-14"],
      ]),
    );
    expect(insightsRequests()).toHaveLength(2);
  });

  it("asks again for a day within settle_after, and not once it was fetched settled", async () => {
    const { stored } = apis();
    const yesterday = { ...JULY, startDate: "2026-07-19", endDate: "2026-07-19" };
    await stored.getInsights(projectId(), yesterday);
    clock += 10 * 60_000; // the next tick
    await stored.getInsights(projectId(), yesterday);
    expect(insightsRequests()).toHaveLength(2);

    clock = Date.parse("2026-07-23T10:00:00Z"); // 07-19 ended 3 days ago: settled
    await stored.getInsights(projectId(), yesterday);
    expect(insightsRequests()).toHaveLength(3);
    await stored.getInsights(projectId(), yesterday);
    expect(insightsRequests()).toHaveLength(3);
  });

  it("shares the recent days among the digests and alerts of one tick, run one after another", async () => {
    const { stored } = apis();
    const daily = { ...JULY, startDate: "2026-07-19", endDate: "2026-07-19" };
    const lastDays = { ...JULY, startDate: "2026-07-17", endDate: "2026-07-20" };
    await stored.getInsights(projectId(), daily);
    clock += 60_000;
    await stored.getInsights(projectId(), lastDays);
    await stored.getInsights(projectId(), daily);
    expect(insightsRequests()).toHaveLength(1);
  });

  it("shares one request for the recent days among queries of different ranges at once", async () => {
    const { stored } = apis();
    const daily = { ...JULY, startDate: "2026-07-19", endDate: "2026-07-19" };
    const dayBefore = { ...JULY, startDate: "2026-07-18", endDate: "2026-07-18" };
    const lastDays = { ...JULY, startDate: "2026-07-17", endDate: "2026-07-20" };
    await Promise.all([daily, dayBefore, lastDays].map((q) => stored.getInsights(projectId(), q)));
    expect(insightsRequests()).toHaveLength(1);
  });

  it("keeps zones apart: a day in Berlin is not a day in Auckland", async () => {
    const { stored } = apis();
    await stored.getInsights(projectId(), JULY);
    await stored.getInsights(projectId(), { ...JULY, timezone: "Pacific/Auckland" });
    expect(insightsRequests()).toHaveLength(2);
  });

  it("remembers, for the day, that the API's today is behind ours: asked once, not refused and asked again", async () => {
    // Our clock 10 days ahead of the API's (the emulator's): its today is 07-20, ours 07-30.
    const { client } = testClient(emulator.url, { now: () => clock });
    const ahead = () => clock + 10 * 86_400_000;
    const stored = withDayStore(client, {
      days: async () => store,
      now: ahead,
      settleAfterMs: H48,
    });
    const ids = emulator.projects.map((p) => p.id);
    const held = { ...JULY, startDate: "2026-07-14", endDate: "2026-07-20" };
    for (const id of ids) await stored.getInsights(id, held);
    emulator.requestLog.length = 0;

    const lastWeek = { ...JULY, startDate: "2026-07-14", endDate: "2026-07-30" };
    const first = await stored.getInsights(ids[0] ?? "", lastWeek);
    // 07-21..07-30 starts after the API's today: refused, then the range as asked is served.
    expect(insightsRequests().map((r) => [r.query.start_date, r.query.end_date])).toEqual([
      ["2026-07-21", "2026-07-30"],
      ["2026-07-14", "2026-07-30"],
    ]);
    expect(first.endDate).toBe("2026-07-20");
    expect(first.missingDays).toBeUndefined();

    emulator.requestLog.length = 0;
    const second = await stored.getInsights(ids[1] ?? "", lastWeek);
    // Known now: the days up to the API's today are all held and settled, none after it exists.
    expect(insightsRequests()).toEqual([]);
    expect(second.endDate).toBe("2026-07-20");
    expect(second.days.map((d) => d.date)).toEqual(
      datesIn({ start: "2026-07-14", end: "2026-07-20" }),
    );
  });

  it("behind: answers without waiting for the days' commit, and asks nothing again for them before or after it", async () => {
    const { client } = testClient(emulator.url, { now: () => clock });
    const commits: string[] = [];
    // The store's writes held until released, to show the answer does not wait for them.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow: DayStore = {
      ...store,
      readDays: (...args) => store.readDays(...args),
      async writeDays(series, days, options) {
        await held;
        await store.writeDays(series, days, options);
        commits.push(`${days.length} days within ${options?.commitWithinMs}`);
      },
    };
    const errors: unknown[] = [];
    const stored = withDayStore(client, {
      days: async () => slow,
      now: () => clock,
      settleAfterMs: H48,
      writeBehind: { commitWithinMs: 1_000, onError: (error) => errors.push(error) },
    });
    const answer = await stored.getInsights(projectId(), JULY);
    expect(answer.days).toHaveLength(14);
    expect(commits).toEqual([]);
    // While its days wait to be committed, the same range asked again shares the answer.
    emulator.requestLog.length = 0;
    expect((await stored.getInsights(projectId(), JULY)).days).toEqual(answer.days);
    expect(insightsRequests()).toEqual([]);
    release();
    await held;
    emulator.requestLog.length = 0;
    const again = await stored.getInsights(projectId(), JULY);
    expect(commits).toEqual(["14 days within 1000"]);
    expect(again.days).toEqual(answer.days);
    expect(insightsRequests()).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("behind: a write that fails goes to onError with its series; the answer stands", async () => {
    const { client } = testClient(emulator.url, { now: () => clock });
    const full = new Error("database or disk is full");
    const failing: DayStore = { ...store, writeDays: async () => Promise.reject(full) };
    const errors: [unknown, string][] = [];
    const stored = withDayStore(client, {
      days: async () => failing,
      now: () => clock,
      settleAfterMs: H48,
      writeBehind: {
        commitWithinMs: 1_000,
        onError: (error, series) => errors.push([error, series.projectId]),
      },
    });
    const answer = await stored.getInsights(projectId(), JULY);
    expect(answer.days).toHaveLength(14);
    await new Promise((resolve) => setImmediate(resolve));
    expect(errors).toEqual([[full, projectId()]]);
  });
});
