import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UpstreamError } from "../../src/errors.js";
import {
  collectInsights,
  collectSpan,
  createRequestCache,
  fetchOutcome,
} from "../../src/insights/collect-insights.js";
import { type RunningEmulator, startEmulator } from "../../src/insights/emulator/start-emulator.js";
import type { FetchOutcome, InsightsApi, ProjectInsights } from "../../src/insights/types.js";
import { Secret } from "../../src/secret.js";
import { testClient } from "./client-builders.js";

// A digest's period and the prior one before it are one range of days: asked in one request
// and cut in two, they give the figures each would have given asked alone. A range the API
// refuses as such leaves each to be asked alone, as before. Inside a request the run already
// made (a digest's chart window), both are cut from that.

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator({ today: "2026-11-18", projects: 3, key: "k" });
});
afterAll(async () => {
  await emulator.close();
});

const insightsAsked = (from: number) =>
  emulator.requestLog
    .slice(from)
    .filter((r) => r.path.endsWith("/insights"))
    .map((r) => `${r.path.split("/").at(-2)} ${r.query.start_date}..${r.query.end_date}`);

const selection = (id: string) => ({ id, name: id, branch: null, author: null, tags: [] });
const team = () => ({
  projects: emulator.projects.map((p) => selection(p.id)),
  timezone: "Asia/Tokyo",
});

/** What each period gives asked alone, in a run of its own. */
async function alone(id: string, period: { start: string; end: string }): Promise<FetchOutcome> {
  const { client } = testClient(emulator.url, { key: new Secret("k") });
  try {
    return await fetchOutcome(client, selection(id), "Asia/Tokyo", period, createRequestCache());
  } finally {
    await client.close();
  }
}

function insightsOf(outcome: FetchOutcome): ProjectInsights {
  if (!outcome.ok) throw new Error(`expected insights, got ${outcome.error.message}`);
  return outcome.insights;
}

describe("a period and the prior one before it", () => {
  it.each([
    [
      "a day and the day before",
      { start: "2026-11-17", end: "2026-11-17" },
      { start: "2026-11-16", end: "2026-11-16" },
    ],
    [
      "a week and the week before",
      { start: "2026-11-09", end: "2026-11-15" },
      { start: "2026-11-02", end: "2026-11-08" },
    ],
  ])(
    "%s: one request a project, each period's days and totals as asked alone",
    async (_, current, prior) => {
      const from = emulator.requestLog.length;
      const { client } = testClient(emulator.url, { key: new Secret("k") });
      let collected: Awaited<ReturnType<typeof collectInsights>>;
      try {
        collected = await collectInsights(client, team(), { current, prior }, createRequestCache());
      } finally {
        await client.close();
      }
      expect(insightsAsked(from).sort()).toEqual(
        emulator.projects.map((p) => `${p.id} ${prior.start}..${current.end}`).sort(),
      );
      for (const project of collected) {
        for (const [mine, period] of [
          [project.current, current],
          [project.prior, prior],
        ] as const) {
          const got = insightsOf(mine);
          const want = insightsOf(await alone(project.projectId, period));
          expect(got.days).toEqual(want.days);
          expect(got.overall.tests).toEqual(want.overall.tests);
          const { meanDurationMs, ...runs } = got.overall.runs;
          const { meanDurationMs: wantMean, ...wantRuns } = want.overall.runs;
          expect(runs).toEqual(wantRuns);
          // The API's mean over days of whole milliseconds, against the mean of those days.
          expect(Math.abs((meanDurationMs ?? 0) - (wantMean ?? 0))).toBeLessThanOrEqual(1);
          expect([got.startDate, got.endDate, got.timezone]).toEqual([
            want.startDate,
            want.endDate,
            want.timezone,
          ]);
        }
      }
    },
  );

  it("past the API's lookback: the range refused, each period asked alone, the prior refused as before", async () => {
    // The emulator's today is 2026-11-18: it serves from 2026-08-18.
    const current = { start: "2026-08-18", end: "2026-08-24" };
    const prior = { start: "2026-08-11", end: "2026-08-17" };
    const from = emulator.requestLog.length;
    const { client } = testClient(emulator.url, { key: new Secret("k") });
    const [project] = team().projects;
    let collected: Awaited<ReturnType<typeof collectInsights>>;
    try {
      collected = await collectInsights(
        client,
        { projects: [project as ReturnType<typeof selection>], timezone: "Asia/Tokyo" },
        { current, prior },
        createRequestCache(),
      );
    } finally {
      await client.close();
    }
    const id = project?.id;
    expect(insightsAsked(from).sort()).toEqual(
      [
        `${id} ${prior.start}..${current.end}`,
        `${id} ${current.start}..${current.end}`,
        `${id} ${prior.start}..${prior.end}`,
      ].sort(),
    );
    const [got] = collected;
    expect(got?.current).toEqual(await alone(id ?? "", current));
    expect(got?.prior).toEqual(await alone(id ?? "", prior));
    expect(got?.prior.ok).toBe(false);
  });

  it("inside a chart window asked first: both cut from its answers, and asked alone when it failed", async () => {
    const current = { start: "2026-11-17", end: "2026-11-17" };
    const prior = { start: "2026-11-16", end: "2026-11-16" };
    const window = { start: "2026-10-21", end: "2026-11-17" };
    const from = emulator.requestLog.length;
    const { client } = testClient(emulator.url, { key: new Secret("k") });
    const cache = createRequestCache();
    let collected: Awaited<ReturnType<typeof collectInsights>>;
    try {
      const drawn = collectSpan(client, team(), window, cache);
      collected = await collectInsights(client, team(), { current, prior }, cache);
      await drawn;
    } finally {
      await client.close();
    }
    expect(insightsAsked(from).sort()).toEqual(
      emulator.projects.map((p) => `${p.id} ${window.start}..${window.end}`).sort(),
    );
    for (const project of collected) {
      expect(insightsOf(project.current).days).toEqual(
        insightsOf(await alone(project.projectId, current)).days,
      );
      expect(insightsOf(project.prior).overall).toEqual(
        insightsOf(await alone(project.projectId, prior)).overall,
      );
    }

    // The window failed: the periods are asked on their own, its failure not theirs.
    const { client: second } = testClient(emulator.url, { key: new Secret("k") });
    const asked: string[] = [];
    const api: InsightsApi = {
      listProjects: () => second.listProjects(),
      getInsights: async (id, query) => {
        asked.push(`${query.startDate}..${query.endDate}`);
        if (query.startDate === window.start)
          throw new UpstreamError("the window's answer was lost");
        return second.getInsights(id, query);
      },
    };
    const fresh = createRequestCache();
    const [project] = team().projects;
    const one = { projects: [project as ReturnType<typeof selection>], timezone: "Asia/Tokyo" };
    let afterFailure: Awaited<ReturnType<typeof collectInsights>>;
    try {
      const drawn = collectSpan(api, one, window, fresh);
      afterFailure = await collectInsights(api, one, { current, prior }, fresh);
      expect((await drawn).get(project?.id ?? "")?.ok).toBe(false);
    } finally {
      await second.close();
    }
    expect(asked.sort()).toEqual(
      [
        `${window.start}..${window.end}`,
        `${current.start}..${current.end}`,
        `${prior.start}..${prior.end}`,
      ].sort(),
    );
    expect(afterFailure[0]?.current.ok).toBe(true);
    expect(afterFailure[0]?.prior.ok).toBe(true);
  });
});
