import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InsightsApi, InsightsQuery, ProjectInsights } from "../../src/insights/types.js";
import { daysBetween } from "../../src/periods/calendar-date.js";
import { insights, mailedDigest } from "../render/charts/mailed-digest.js";
import { pngSize } from "../render/charts/png-pixels.js";

// The chart worker never takes a digest down: killed mid-draw, hung, or fed figures no chart
// can show, the digest goes out, without its charts and saying why in the log; fed huge but
// true figures or the narrowest window, it goes out with charts that show them.

type Client = typeof import("../../src/chart-painter/chart-worker-client.js");
type RunDigest = typeof import("../../src/pipeline/digest/run-digest.js");
type CollectInsights = typeof import("../../src/insights/collect-insights.js");
type TrendChart = typeof import("../../src/render/charts/trend-chart.js");
type ChartAssets = typeof import("../../src/render/charts/chart-assets.js");

const dist = (path: string) => new URL(`../../dist/${path}`, import.meta.url).href;
const client: Client = await import(dist("chart-painter/chart-worker-client.js"));
const { runDigest }: RunDigest = await import(dist("pipeline/digest/run-digest.js"));
const { createRequestCache }: CollectInsights = await import(dist("insights/collect-insights.js"));
const { CHART_SIZE }: TrendChart = await import(dist("render/charts/trend-chart.js"));
const { CHART_SPECS }: ChartAssets = await import(dist("render/charts/chart-assets.js"));

const WORKER_ENTRY = new URL(dist("chart-painter/chart-worker.js"));
const SETUP = { width: CHART_SIZE.width, scale: CHART_SIZE.scale, specFiles: CHART_SPECS };

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "chart-faults-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A chart worker of `entry` (the built one unless told), ended by the test. */
const painters: Array<{ close(): Promise<void> }> = [];
function aWorker(options: Partial<Parameters<Client["chartWorker"]>[0]> = {}) {
  const worker = client.chartWorker({
    entry: WORKER_ENTRY,
    setup: SETUP,
    idleMs: 30_000,
    hungAfterMs: 30_000,
    ...options,
  });
  painters.push(worker);
  return worker;
}
afterAll(async () => {
  for (const p of painters) await p.close();
});

/** A worker entry of our own: it reads its first request, then runs `onRequest`. */
async function entry(name: string, onRequest: string): Promise<URL> {
  const file = join(dir, name);
  await writeFile(
    file,
    `import { parentPort } from "node:worker_threads";\nparentPort.on("message", () => { ${onRequest} });\n`,
  );
  return pathToFileURL(file);
}

/** The emulated API, each day's figures changed by `change`. */
function apiWith(
  change: (day: ProjectInsights["days"][number], q: InsightsQuery) => void,
): InsightsApi {
  return {
    getInsights: async (id, q) => {
      const answer = insights(id, q);
      for (const day of answer.days) change(day, q);
      return answer;
    },
    listProjects: async () => [],
  };
}
const plainApi = apiWith(() => {});

/** The digest went out by mail once, without charts, and the log says why. */
function wentOutWithoutCharts(
  { outcome, sent, logs }: Awaited<ReturnType<typeof mailedDigest>>,
  why: RegExp,
) {
  expect(sent).toHaveLength(1);
  expect(outcome.charts).toEqual([]);
  expect(sent[0]?.attachments).toEqual([]);
  expect(logs).toContain("charts left out of the digest");
  expect(logs).toMatch(why);
}

const modules = { runDigest, createRequestCache };

describe("a digest whose charts cannot be drawn", () => {
  it("goes out without its charts when the chart worker is killed mid-draw", async () => {
    // The worker takes the draw, then its thread ends with the draw unanswered.
    const killed = aWorker({ entry: await entry("killed.mjs", "process.exit(9);") });
    const out = await mailedDigest(modules, plainApi, killed);
    wentOutWithoutCharts(out, /the chart worker exited \(code 9\)/);
  });

  it("goes out without its charts when the chart worker hangs", async () => {
    const hung = aWorker({ entry: await entry("hangs.mjs", "for (;;) {}"), hungAfterMs: 300 });
    const out = await mailedDigest(modules, plainApi, hung);
    wentOutWithoutCharts(out, /the chart worker did not answer within 300 ms/);
  });

  it("goes out without its charts when the figures are not numbers (NaN)", async () => {
    // Only the chart window's days before the digest's two weeks: the report's figures are
    // summed from the days of the same answers, and JSON could not carry a NaN into them.
    const nan = apiWith((day, q) => {
      if (daysBetween(day.date, q.endDate) < 14) return;
      if (day.tests) day.tests.flaky = Number.NaN;
      if (day.runs) day.runs.passed = Number.NaN;
    });
    const out = await mailedDigest(modules, nan, aWorker());
    wentOutWithoutCharts(out, /not a number/);
    expect(JSON.stringify(out.sent)).not.toContain("NaN%");
  });
});

describe("a digest with extreme but true figures", () => {
  it("goes out with charts of 10⁹ runs a day, counted in full", async () => {
    const huge = apiWith((day) => {
      if (day.runs) day.runs.passed = 1_000_000_000;
      if (day.tests) day.tests.passed = 1_000_000_000;
    });
    const { outcome, sent } = await mailedDigest(modules, huge, aWorker());
    expect(sent).toHaveLength(1);
    expect(outcome.charts).toHaveLength(1);
    for (const chart of outcome.charts) {
      expect(pngSize(chart.png)).toEqual({ width: 1200, height: chart.height });
    }
    expect(outcome.charts[0]?.alt).toContain("1,000,000,001 runs");
  });

  it("goes out with charts of its two periods when the chart window is zero days", async () => {
    const { outcome, sent } = await mailedDigest(modules, plainApi, aWorker(), { windowDays: 0 });
    expect(sent).toHaveLength(1);
    expect(outcome.charts).toHaveLength(1);
    // Never narrower than the two periods the digest compares: two weeks, Nov 2 – 15.
    expect(outcome.charts[0]?.alt).toContain("by day, Nov 2 – 15, 2026");
  });
});
