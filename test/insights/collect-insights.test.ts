import { describe, expect, it } from "vitest";
import { collectInsights, createRequestCache } from "../../src/insights/collect-insights.js";
import type {
  InsightsApi,
  InsightsQuery,
  ProjectInsights,
  ProjectSummary,
} from "../../src/insights/types.js";

const NOTHING = {
  runs: { passed: 0, failed: 0, meanDurationMs: null },
  tests: { passed: 0, failed: 0, skipped: 0, flaky: 0, timedOut: 0 },
};

/** An API whose project list answers only when `answerList` is called. */
function apiWithHeldList() {
  const asked: string[] = [];
  let answerList: (projects: ProjectSummary[]) => void = () => {};
  const api: InsightsApi = {
    listProjects: () => {
      asked.push("list");
      return new Promise((resolve) => {
        answerList = resolve;
      });
    },
    getInsights: async (projectId: string, query: InsightsQuery): Promise<ProjectInsights> => {
      asked.push(`${projectId} ${query.startDate}`);
      const { startDate, endDate, timezone } = query;
      return { projectId, startDate, endDate, timezone, days: [], overall: NOTHING };
    },
  };
  return { api, asked, answerList: (projects: ProjectSummary[]) => answerList(projects) };
}

const project = (id: string) => ({ id, name: null, branch: null, author: null, tags: [] });
const periods = {
  current: { start: "2026-11-17", end: "2026-11-17" },
  prior: { start: "2026-11-10", end: "2026-11-10" },
};

describe("collecting a team's insights", () => {
  it("asks for the insights without waiting for the project list, and names projects from it", async () => {
    const { api, asked, answerList } = apiWithHeldList();
    const team = { projects: [project("aaa"), project("bbb")], timezone: "Etc/UTC" };
    const collected = collectInsights(api, team, periods, createRequestCache());
    await new Promise((resolve) => setImmediate(resolve));
    expect(asked).toEqual([
      "list",
      "aaa 2026-11-17",
      "aaa 2026-11-10",
      "bbb 2026-11-17",
      "bbb 2026-11-10",
    ]);
    answerList([{ id: "aaa", name: "Web" }]);
    expect((await collected).map((p) => [p.projectId, p.name])).toEqual([
      ["aaa", "Web"],
      ["bbb", "bbb"],
    ]);
  });
});
