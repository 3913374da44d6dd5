import { describe, expect, it } from "vitest";
import { opensFire } from "../../../src/destinations/fire-images.js";
import {
  collectInsights,
  collectSpan,
  createRequestCache,
} from "../../../src/insights/collect-insights.js";
import type { FetchOutcome, InsightsApi, InsightsDay } from "../../../src/insights/types.js";
import { chartWindow, defaultChartDays } from "../../../src/periods/chart-window.js";
import { chartThresholds } from "../../../src/render/charts/chart-thresholds.js";
import { digestChartData } from "../../../src/render/charts/digest-charts.js";
import { fireChartInput } from "../../../src/render/charts/fire-chart-input.js";
import { configText as configTextWith, issueLines, parse } from "../../config/config-builders.js";
import { checkoutReport, WEEK } from "../report-fixture.js";

// What the charts are drawn from: which days (the window), whose days (the team total's
// projects), and which thresholds (the team's alerts on the metric); and the config that says so.

const WINDOW = { start: "2026-09-21", end: "2026-11-15" };

function outcome(days: InsightsDay[]): FetchOutcome {
  return {
    ok: true,
    insights: {
      projectId: "x",
      startDate: WINDOW.start,
      endDate: WINDOW.end,
      timezone: "UTC",
      days,
      overall: {
        runs: { passed: 0, failed: 0, meanDurationMs: null },
        tests: { passed: 0, failed: 0, skipped: 0, flaky: 0, timedOut: 0 },
      },
    },
  };
}

const day = (date: string, flaky: number): InsightsDay => ({
  date,
  runs: { passed: 9, failed: 1, meanDurationMs: 60_000 },
  tests: { passed: 1000, failed: 0, skipped: 0, flaky, timedOut: 0 },
});

describe("the chart window", () => {
  it("is 8 weeks for weekly digests and 28 days for daily ones, ending with the period", () => {
    expect(defaultChartDays("previous_week")).toBe(56);
    expect(defaultChartDays("previous_day")).toBe(28);
    expect(chartWindow(WEEK, 56)).toEqual({ start: "2026-09-21", end: "2026-11-15" });
  });

  it("never leaves out the prior period, however short the configured window", () => {
    expect(chartWindow(WEEK, 3)).toEqual({ start: WEEK.prior.start, end: WEEK.current.end });
  });
});

describe("a digest's chart data", () => {
  it("sums the projects the team total counts, leaves gaps where none ran, and skips a project whose window failed", () => {
    const report = checkoutReport();
    const ok = report.projects.filter((p) => p.status === "ok");
    const [first, second, third] = ok;
    const fetched = new Map<string, FetchOutcome>([
      [first?.projectId ?? "", outcome([day("2026-11-10", 10), day("2026-11-11", 20)])],
      [second?.projectId ?? "", outcome([day("2026-11-10", 30)])],
      [third?.projectId ?? "", { ok: false, error: { code: "UPSTREAM", message: "503" } }],
    ]);
    const data = digestChartData(report, WINDOW, fetched, []);
    expect(data.team).toHaveLength(56);
    const on = (date: string) => data.team.find((d) => d.date === date)?.figures;
    expect(on("2026-11-10")?.testsFlaky).toBe(40);
    expect(on("2026-11-10")?.tests).toBe(2000);
    expect(on("2026-11-11")?.flakyRate).toBeCloseTo(0.02);
    expect(on("2026-11-12")?.flakyRate).toBeNull();
    expect([...data.projects.keys()]).toEqual([first?.projectId, second?.projectId]);
    expect(data.thresholds).toEqual({ flakyRate: [], runPassRate: [] });
  });

  it("draws the thresholds of the team's alerts on the charted metric, in fractions, each once", () => {
    const alerts = [
      { metric: "flaky_rate" as const, warnAt: 3, criticalAt: 5 },
      { metric: "flaky_rate" as const, warnAt: 3, criticalAt: 8 },
      { metric: "runs" as const, warnAt: 10, criticalAt: 5 },
    ];
    expect(chartThresholds("flakyRate", alerts)).toEqual([
      { level: "warn", value: 0.03 },
      { level: "critical", value: 0.05 },
      { level: "critical", value: 0.08 },
    ]);
    expect(chartThresholds("runPassRate", alerts)).toEqual([]);
  });
});

describe("a fire's chart data", () => {
  // A daily alert fired for Wed 11 Nov: its trend is the week up to it, the prior window Tue 10.
  const window = { start: "2026-11-11", end: "2026-11-11" };
  const spans = {
    trend: { start: "2026-11-05", end: "2026-11-11" },
    prior: { start: "2026-11-10", end: "2026-11-10" },
  };
  const rule = { metric: "flaky_rate" as const, warnAt: 3, criticalAt: 5 };
  const projects = [{ id: "web" }, { id: "api" }, { id: "down" }];
  const failed: FetchOutcome = { ok: false, error: { code: "UPSTREAM", message: "503" } };
  const fetched = [
    new Map<string, FetchOutcome>([
      ["web", outcome([day("2026-11-10", 10), day("2026-11-11", 60)])],
      ["api", outcome([day("2026-11-11", 20)])],
      ["down", failed],
    ]),
    new Map<string, FetchOutcome>([
      ["web", outcome([day("2026-11-10", 10)])],
      ["api", outcome([])],
      ["down", failed],
    ]),
  ];

  it("is each fired project's days and the team's summed, over both spans, the fired window against the one before", () => {
    const input = fireChartInput({
      rule,
      window,
      spans,
      projects,
      fetched,
      fired: [
        { scope: "web", name: "Checkout web" },
        { scope: "team", name: "Checkout (team)" },
      ],
    });
    expect(input.window).toEqual({ start: "2026-11-05", end: "2026-11-11" });
    expect(input.periods).toEqual({ current: window, prior: spans.prior });
    expect(input.rule).toBe(rule);
    const [web, team] = input.scopes;
    expect(web?.name).toBe("Checkout web");
    expect(web?.days.map((d) => d.date)).toEqual([
      "2026-11-05",
      "2026-11-06",
      "2026-11-07",
      "2026-11-08",
      "2026-11-09",
      "2026-11-10",
      "2026-11-11",
    ]);
    expect(web?.days.at(-1)?.figures.flakyRate).toBeCloseTo(0.06);
    expect(web?.days[0]?.figures.flakyRate).toBeNull();
    // The team: web and api summed; the project whose fetch failed adds nothing.
    expect(team?.days.at(-1)?.figures.testsFlaky).toBe(80);
    expect(team?.days.at(-1)?.figures.tests).toBe(2000);
    expect(team?.days.at(-2)?.figures.testsFlaky).toBe(10);
  });

  it("opens a fire only in a message that is not a reply in its thread", () => {
    expect(opensFire({ threadKey: null })).toBe(true);
    expect(opensFire({})).toBe(true);
    expect(opensFire({ threadKey: "t.alert.flaky.2026-11-10" })).toBe(false);
    expect(opensFire(null)).toBe(false);
  });
});

describe("charts in the config", () => {
  it("are off unless a digest has charts; the window is the period's default or as written", () => {
    const digestOf = (text: string) => {
      const result = parse(text);
      if (!("config" in result)) throw new Error(issueLines(result).join("\n"));
      return result.config.teams[0]?.digests[0];
    };
    const base = "teams[0].digests[0]";
    expect(digestOf(configTextWith({}))?.charts).toBeNull();
    expect(digestOf(configTextWith({ [`${base}.charts`]: {} }))?.charts).toEqual({
      windowDays: 28,
    });
    expect(digestOf(configTextWith({ [`${base}.charts`]: { window: "8w" } }))?.charts).toEqual({
      windowDays: 56,
    });
    expect(
      issueLines(parse(configTextWith({ [`${base}.charts`]: { window: "two months" } }))),
    ).toEqual([
      `${base}.charts.window: "two months" is not allowed — must be days or weeks, e.g. "28d" or "8w"`,
    ]);
  });
});

describe("the chart window's days", () => {
  it("are fetched once per project and run, through the run's request cache", async () => {
    const asked: string[] = [];
    const api: InsightsApi = {
      async getInsights(projectId, query) {
        asked.push(`${projectId} ${query.startDate}..${query.endDate}`);
        const result = outcome([day(query.endDate, 5)]);
        if (!result.ok) throw new Error("unreachable");
        return { ...result.insights, projectId };
      },
      async listProjects() {
        return [];
      },
    };
    const team = {
      timezone: "UTC",
      projects: ["a", "b"].map((id) => ({ id, name: id, branch: null, author: null, tags: [] })),
    };
    const cache = createRequestCache();
    await collectInsights(api, team, WEEK, cache);
    const first = await collectSpan(api, team, WINDOW, cache);
    const second = await collectSpan(api, team, WINDOW, cache);
    expect(asked.filter((a) => a.endsWith(`${WINDOW.start}..${WINDOW.end}`))).toEqual([
      `a ${WINDOW.start}..${WINDOW.end}`,
      `b ${WINDOW.start}..${WINDOW.end}`,
    ]);
    // Each project's two weeks (one request: the prior ends the day before the week) and its window.
    expect(asked).toHaveLength(4);
    expect(second.get("a")).toEqual(first.get("a"));
    expect(first.get("b")?.ok).toBe(true);
  });
});
