import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Team } from "../../src/config/types.js";
import { createRequestCache } from "../../src/insights/collect-insights.js";
import { type RunningEmulator, startEmulator } from "../../src/insights/emulator/start-emulator.js";
import { createRequestBudget } from "../../src/insights/request-budget.js";
import { withDayStore } from "../../src/insights/stored-insights-api.js";
import type { InsightsApi } from "../../src/insights/types.js";
import { createLogger } from "../../src/logger.js";
import { recentWindow } from "../../src/periods/plan-day-fetches.js";
import { fetchChartDaysAhead } from "../../src/pipeline/digest/chart-stage.js";
import { digestSlot } from "../../src/pipeline/digest/digest-slot.js";
import { buildDigestReport } from "../../src/pipeline/digest/report-stage.js";
import { createDayPrefetcher, type DayPrefetcher } from "../../src/scheduler/day-prefetcher.js";
import { listJobs, type ScheduledJob } from "../../src/scheduler/jobs.js";
import { seriesOfJob } from "../../src/scheduler/prefetch-plan.js";
import type { DayStore } from "../../src/state/day-store.js";
import { openDayStore } from "../../src/state/open/open-day-store.js";
import { TEST_KEY, testClient } from "../insights/client-builders.js";
import { aDigest, aTeam } from "./daemon-harness.js";

// The settled days of tomorrow's fires, fetched in the quiet hours: the emulator's today moves
// with the test's clock, every request is in its log, and the fires at 09:00 are the digests'
// own collect and chart stages through the day store, as the daemon runs them.

const H48 = 48 * 3_600_000;
/** Monday 30 November 2026, 09:00 in Berlin. */
const FIRE = Date.parse("2026-11-30T08:00:00Z");
const silent = createLogger({ level: "silent" });

let clock = 0;
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
  dir = mkdtempSync(join(tmpdir(), "day-prefetch-"));
  store = await openDayStore({ path: join(dir, "ledger.sqlite"), url: null }, silent);
  emulator.requestLog.length = 0;
  return async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  };
});

/** A team with a daily and a weekly digest (charts over 8 weeks) at 09:00, over two series. */
function team(): Team {
  const [first, second] = emulator.projects;
  if (!first || !second) throw new Error("the emulator has two projects");
  // Named, so that no fire asks for the project list.
  const project = { author: null, tags: [], owners: [] };
  return aTeam({
    projects: [
      { ...project, id: first.id, name: "Checkout", branch: null },
      { ...project, id: second.id, name: "Billing", branch: "main" },
    ],
    digests: [
      aDigest({ name: "daily", schedule: "0 9 * * *", period: "previous_day" }),
      aDigest({
        name: "weekly",
        schedule: "0 9 * * 1",
        period: "previous_week",
        charts: { windowDays: 56 },
      }),
    ],
  });
}

/** The API behind the day store, its budget (if any) and its sleeps on the test's clock. */
function storedApi(maxPerMinute: number | null = null) {
  const budgetSleeps: number[] = [];
  const budget = createRequestBudget({
    maxPerMinute,
    now: () => clock,
    sleep: async (ms) => {
      budgetSleeps.push(ms);
      clock += ms;
    },
  });
  const { client } = testClient(emulator.url, { now: () => clock, budget });
  const api = withDayStore(client, {
    days: async () => store,
    now: () => clock,
    settleAfterMs: H48,
  });
  return { api, budgetSleeps };
}

function prefetcherOptions(api: InsightsApi, teams: () => Team[]) {
  return {
    jobs: () => listJobs(teams()),
    api,
    days: async () => store,
    now: () => new Date(clock),
    settleAfterMs: H48,
    aheadMs: 24 * 3_600_000,
    maxRequestsPerMinute: 60,
    busy: () => false,
    owner: "daemon test",
    logger: silent,
    // Its pace is waited on the test's clock.
    sleep: async (ms: number) => {
      clock += ms;
    },
  };
}

function prefetcher(
  api: InsightsApi,
  teams: Team[],
  options: { busy?: () => boolean } = {},
): DayPrefetcher {
  return createDayPrefetcher({
    ...prefetcherOptions(api, () => teams),
    ...(options.busy ? { busy: options.busy } : {}),
  });
}

/** Both digests' fires at 09:00: the report's periods and the weekly chart window, one tick. */
async function fireDigests(api: InsightsApi, teams: Team[]): Promise<void> {
  clock = FIRE;
  const cache = createRequestCache();
  const [one] = teams;
  if (!one) throw new Error("no team");
  await Promise.all(
    one.digests.map(async (digest) => {
      const job = { team: one, digest, fireAt: new Date(FIRE) };
      if (digest.charts) {
        fetchChartDaysAhead(job, digestSlot(job).periods, digest.charts.windowDays, { api, cache });
      }
      await buildDigestReport(job, { api, cache, logger: silent });
    }),
  );
  await Promise.allSettled(cache.insights.values());
}

const insightsAsked = () =>
  emulator.requestLog
    .filter((request) => request.path.endsWith("/insights"))
    .map((request) => ({
      series: `${request.path.split("/").at(-2)} ${request.query.branch ?? "-"}`,
      start: request.query.start_date,
      end: request.query.end_date,
    }));

describe("the quiet hours' prefetch", () => {
  it("leaves the 09:00 fires of a daily and a weekly digest only the last days to ask, once a series", async () => {
    const teams = [team()];
    const { api } = storedApi();
    const prefetch = prefetcher(api, teams);
    // Sunday evening and just after midnight in Berlin: nothing else runs.
    for (const at of ["2026-11-29T18:00:00Z", "2026-11-29T23:30:00Z"]) {
      clock = Date.parse(at);
      expect((await prefetch.pass()).finished).toBe(true);
    }
    const prefetched = insightsAsked().length;
    expect(prefetched).toBeGreaterThan(0);
    emulator.requestLog.length = 0;

    await fireDigests(api, teams);

    const recent = recentWindow(FIRE, "Europe/Berlin", H48);
    const asked = insightsAsked();
    expect(asked.map((request) => request.series).sort()).toEqual(
      [`${emulator.projects[0]?.id} -`, `${emulator.projects[1]?.id} main`].sort(),
    );
    for (const request of asked) {
      expect({ start: request.start, end: request.end }).toEqual(recent);
    }
  });

  it("sends nothing within two minutes of a fire, so the fire's requests find the budget free", async () => {
    const early = team();
    // Another team's weekly digest at 10:00, over two series of their own (an author's runs).
    const late = aTeam({
      name: "billing",
      projects: early.projects.map((p) => ({ ...p, author: "ana" })),
      digests: [
        aDigest({
          name: "weekly",
          schedule: "0 10 * * 1",
          period: "previous_week",
          charts: { windowDays: 56 },
        }),
      ],
    });
    // A budget of 2 a minute: the 09:00 fire's two requests (one a series) use all of it.
    const { api, budgetSleeps } = storedApi(2);
    let teams = [early];
    const prefetch = createDayPrefetcher({
      ...prefetcherOptions(api, () => teams),
      maxRequestsPerMinute: 1,
    });
    clock = Date.parse("2026-11-29T23:30:00Z");
    expect((await prefetch.pass()).finished).toBe(true);
    // From 08:55 Berlin at one request a minute, with the 10:00 fire's four ranges to go.
    teams = [early, late];
    clock = Date.parse("2026-11-30T07:55:00Z");
    emulator.requestLog.length = 0;
    emulator.arrivals.length = 0;
    const result = await prefetch.pass();
    expect(result).toMatchObject({ requests: 3, finished: false });
    expect(emulator.arrivals.every((at) => at <= FIRE - 2 * 60_000)).toBe(true);
    budgetSleeps.length = 0;
    emulator.requestLog.length = 0;

    await fireDigests(api, [early]);

    expect(insightsAsked()).toHaveLength(2);
    expect(budgetSleeps).toEqual([]);
  });

  it("stops asking once a slot runs, and asks nothing while one does", async () => {
    const teams = [team()];
    const { api } = storedApi();
    let running = false;
    const slotStarts: InsightsApi = {
      listProjects: (query) => api.listProjects(query),
      async getInsights(projectId, query) {
        const answer = await api.getInsights(projectId, query);
        running = true; // a slot fell due while this request was out
        return answer;
      },
    };
    const prefetch = prefetcher(slotStarts, teams, { busy: () => running });
    clock = Date.parse("2026-11-29T18:00:00Z");
    expect(await prefetch.pass()).toEqual({ requests: 1, leftToOthers: 0, finished: false });
    expect(await prefetch.pass()).toEqual({ requests: 0, leftToOthers: 0, finished: false });
    expect(insightsAsked()).toHaveLength(1);
  });

  it("works out no fire while a slot runs", async () => {
    const teams = [team()];
    const { api } = storedApi();
    let jobsListed = 0;
    const prefetch = createDayPrefetcher({
      ...prefetcherOptions(api, () => teams),
      jobs: () => {
        jobsListed++;
        return listJobs(teams);
      },
      busy: () => true,
    });
    clock = Date.parse("2026-11-29T18:00:00Z");
    expect(await prefetch.pass()).toEqual({ requests: 0, leftToOthers: 0, finished: false });
    expect(jobsListed).toBe(0);
    expect(insightsAsked()).toHaveLength(0);
  });

  it("leaves a range another replica has claimed to it, and asks for the rest", async () => {
    const teams = [team()];
    const { api } = storedApi();
    clock = Date.parse("2026-11-29T18:00:00Z");
    // The other replica holds the claim of each series' first range (the weekly chart's).
    for (const one of seriesOfJob(listJobs(teams)[0] as ScheduledJob)) {
      expect(await store.claimFetch(one.series, "2026-10-05", "the other replica", 600_000)).toBe(
        "won",
      );
    }
    const result = await prefetcher(api, teams).pass();
    expect(result).toMatchObject({ leftToOthers: 2, finished: true });
    const asked = insightsAsked();
    expect(asked.length).toBe(result.requests);
    expect(asked.some((request) => request.start === "2026-10-05")).toBe(false);
    expect(asked.length).toBeGreaterThan(0);
  });

  it("hands the event loop back while it plans the next fires of many teams", async () => {
    // 600 teams with a daily and a weekly digest each, planned with a hand-back after every
    // step (the daemon's is every 20 ms of work): the loop's other work runs in between.
    const one = team();
    const teams = Array.from({ length: 600 }, (_, i) => ({ ...one, name: `team-${i}` }));
    const { api } = storedApi();
    clock = Date.parse("2026-11-29T18:00:00Z");
    const prefetch = createDayPrefetcher({
      ...prefetcherOptions(api, () => teams),
      yieldEveryMs: 0,
      // The plan is what is measured: no range is asked for (busy from the third look on:
      // the pass looks before the next fires and again before the plan).
      busy: (() => {
        let asked = 0;
        return () => asked++ > 1;
      })(),
    });
    let planning = true;
    let interleaved = 0;
    const beat = () => {
      if (!planning) return;
      interleaved++;
      setImmediate(beat);
    };
    setImmediate(beat);
    await prefetch.pass();
    planning = false;
    expect(interleaved).toBeGreaterThanOrEqual(teams.length);
  });
});
