import { describe, expect, it } from "vitest";
import {
  collectInsights,
  createRequestCache,
  forgetInsights,
} from "../../src/insights/collect-insights.js";
import type { InsightsApi, InsightsQuery, ProjectInsights } from "../../src/insights/types.js";
import { datesIn } from "../../src/periods/calendar-date.js";

// `export` lets the fetched days go before it writes the workbook (15 MB for 2 years of 100
// projects): once the run's cache forgets them, nothing of an earlier answer serves a request.

function countingApi(asked: string[]): InsightsApi {
  return {
    listProjects: async () => [],
    getInsights: async (projectId: string, q: InsightsQuery): Promise<ProjectInsights> => {
      asked.push(`${q.startDate}..${q.endDate}`);
      const days = datesIn({ start: q.startDate, end: q.endDate }).map((date) => ({
        date,
        runs: { passed: 3, failed: 1, meanDurationMs: 60_000 },
        tests: null,
      }));
      return {
        projectId,
        startDate: q.startDate,
        endDate: q.endDate,
        timezone: q.timezone,
        days,
        overall: {
          runs: { passed: 3 * days.length, failed: days.length, meanDurationMs: 60_000 },
          tests: { passed: 0, failed: 0, skipped: 0, flaky: 0, timedOut: 0 },
        },
      };
    },
  };
}

describe("a run's cache, once it forgets the fetched insights", () => {
  it("cuts no later period from an answer it had: the days are no longer held", async () => {
    const asked: string[] = [];
    const api = countingApi(asked);
    const team = {
      projects: [{ id: "p", name: "p", branch: null, author: null, tags: [] }],
      timezone: "UTC",
    };
    const month = {
      current: { start: "2026-10-01", end: "2026-10-31" },
      prior: { start: "2026-09-01", end: "2026-09-30" },
    };
    // Two halves of October: inside the month asked before, they would be cut from its answer.
    const halves = {
      current: { start: "2026-10-16", end: "2026-10-31" },
      prior: { start: "2026-10-01", end: "2026-10-15" },
    };
    const cache = createRequestCache();
    await collectInsights(api, team, month, cache);
    const before = asked.length;
    forgetInsights(cache);
    await collectInsights(api, team, halves, cache);
    expect(asked.slice(before)).toEqual(["2026-10-01..2026-10-31"]);
  });
});
