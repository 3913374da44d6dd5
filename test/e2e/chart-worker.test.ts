import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DRAWING_NICE } from "../../src/chart-painter/drawing-priority.js";
import type { InsightsApi } from "../../src/insights/types.js";
import { CHART_SPECS } from "../../src/render/charts/chart-assets.js";
import type { ChartData } from "../../src/render/charts/chart-spec.js";
import type { ChartPainter } from "../../src/render/charts/draw-chart.js";
import { insights, mailedDigest } from "../render/charts/mailed-digest.js";
import { decodePng, differingPixels, pngSize } from "../render/charts/png-pixels.js";

// The built package draws charts in a worker thread (the unit tests, from the sources, draw in
// their own thread): a digest's PNGs come back whole from it, the worker ends when idle or
// closed, and a worker that dies or hangs costs the digest its charts, never the digest.

type Client = typeof import("../../src/chart-painter/chart-worker-client.js");
type OnFirstUse = typeof import("../../src/chart-painter/chart-painter-on-first-use.js");
type CreateDeps = typeof import("../../src/create-deps.js");
type LoadConfig = typeof import("../../src/config/load-config.js");
type RunDigest = typeof import("../../src/pipeline/digest/run-digest.js");
type CollectInsights = typeof import("../../src/insights/collect-insights.js");
type TrendChart = typeof import("../../src/render/charts/trend-chart.js");

const dist = (path: string) => new URL(`../../dist/${path}`, import.meta.url).href;
const client: Client = await import(dist("chart-painter/chart-worker-client.js"));
const { chartPainterOnFirstUse }: OnFirstUse = await import(
  dist("chart-painter/chart-painter-on-first-use.js")
);
const { createClients }: CreateDeps = await import(dist("create-deps.js"));
const { loadConfig }: LoadConfig = await import(dist("config/load-config.js"));
const { runDigest }: RunDigest = await import(dist("pipeline/digest/run-digest.js"));
const { CHART_SIZE, trendChartPainterInThisThread }: TrendChart = await import(
  dist("render/charts/trend-chart.js")
);

const WORKER_ENTRY = new URL(dist("chart-painter/chart-worker.js"));
const SETUP = { width: CHART_SIZE.width, scale: CHART_SIZE.scale, specFiles: CHART_SPECS };

/** A weekly digest with charts, mailed, run by the built package, its charts drawn by `chartPainter`. */
async function digestWithCharts(chartPainter: ChartPainter) {
  const { createRequestCache }: CollectInsights = await import(
    dist("insights/collect-insights.js")
  );
  const api: InsightsApi = {
    getInsights: async (id, q) => insights(id, q),
    listProjects: async () => [],
  };
  return mailedDigest({ runDigest, createRequestCache }, api, chartPainter);
}

/** A chart worker of the built entry that neither ends idle nor counts as hung within a test, unless told. */
function aWorker(options: Partial<Parameters<Client["chartWorker"]>[0]> = {}) {
  return client.chartWorker({
    entry: WORKER_ENTRY,
    setup: SETUP,
    idleMs: 30_000,
    hungAfterMs: 30_000,
    ...options,
  });
}

/** A chart's data as the spec takes it: enough for a worker that never looks at it. */
const ANY_CHART: ChartData = {
  spec: "trend",
  datasets: { rows: [], spans: [], rules: [] },
  signals: { chartTitle: "t", xStart: 0, xEnd: 1, yLow: 0, yHigh: 1 },
};

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "chart-worker-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A trend chart's data, as a digest hands it to the painter. */
async function aChart(): Promise<ChartData> {
  const { trendChartDataOf } = await import("../../src/render/charts/trend-chart.js");
  const { chartInput } = await import("../render/charts/chart-fixture.js");
  return trendChartDataOf(
    chartInput("flakyRate", { thresholds: [{ level: "warn", value: 0.05 }] }),
  );
}

/** The clients `create-deps` builds, by the built package, for a config that sends nothing. */
async function someClients() {
  const path = join(dir, "reporter.yaml");
  await writeFile(
    path,
    [
      'api: { url: "http://127.0.0.1:9/api/external/v1", key: "not-used" }',
      "teams:",
      "  - { name: checkout, title: Checkout, timezone: Europe/Berlin, projects: [{ id: web }] }",
    ].join("\n"),
  );
  const config = loadConfig(path, { env: {}, requireCredentials: false });
  return createClients(config, { logger: pino({ level: "silent" }), outbox: join(dir, "out") });
}

/** A worker entry of our own, standing in for one that fails. */
async function entry(name: string, body: string): Promise<URL> {
  const file = join(dir, name);
  await writeFile(
    file,
    `import { parentPort } from "node:worker_threads";\nparentPort.on("message", (m) => { ${body} });\n`,
  );
  return pathToFileURL(file);
}

describe("charts drawn by the built package", () => {
  it("come back from the chart worker as the PNGs this thread draws, pixel for pixel, and the worker ends when closed", async () => {
    const painter = chartPainterOnFirstUse();
    expect(painter.running).toBe(false);
    const { outcome, sent } = await digestWithCharts(painter);
    expect(outcome.charts.map((c) => c.name)).toEqual(["team-rates"]);
    const here = await digestWithCharts(trendChartPainterInThisThread());
    expect(here.outcome.charts.map((c) => c.name)).toEqual(outcome.charts.map((c) => c.name));
    for (const [i, chart] of outcome.charts.entries()) {
      expect(pngSize(chart.png)).toEqual({ width: 1200, height: chart.height });
      const drawnHere = decodePng((here.outcome.charts[i] as typeof chart).png);
      expect(differingPixels(decodePng(chart.png), drawnHere).count).toBe(0);
    }
    expect(sent[0]?.attachments).toHaveLength(1);
    expect(painter.running).toBe(true);
    await painter.close();
    expect(painter.running).toBe(false);
  });

  it("are drawn by a worker of each client set's own, started by its first chart and ended by its close", async () => {
    const one = await someClients();
    const two = await someClients();
    try {
      expect([one.chartPainter.running, two.chartPainter.running]).toEqual([false, false]);
      const chart = await aChart();
      await Promise.all([one.chartPainter.draw(chart), two.chartPainter.draw(chart)]);
      expect([one.chartPainter.running, two.chartPainter.running]).toEqual([true, true]);

      await one.close();
      expect([one.chartPainter.running, two.chartPainter.running]).toEqual([false, true]);
      // The other set's worker was left alone: it still draws.
      expect(pngSize((await two.chartPainter.draw(chart)).png)).toEqual({
        width: 1200,
        height: 520,
      });
      expect(two.chartPainter.running).toBe(true);
    } finally {
      await one.close();
      await two.close();
    }
    expect(two.chartPainter.running).toBe(false);
  });

  it("ends the worker once it has been idle, and starts a new one for the next chart", async () => {
    const ends: string[] = [];
    let idleEnd: () => void = () => {};
    const worker = aWorker({
      idleMs: 50,
      onEnd: (reason: string) => {
        ends.push(reason);
        if (reason === "idle") idleEnd();
      },
    });
    const data = await aChart();
    for (const round of [1, 2]) {
      const ended = new Promise<void>((resolve) => {
        idleEnd = resolve;
      });
      const drawn = await worker.draw(data);
      expect(pngSize(drawn.png)).toEqual({ width: 1200, height: 520 });
      expect(worker.running).toBe(true);
      await ended;
      expect(worker.running).toBe(false);
      expect(ends).toEqual(Array(round).fill("idle"));
    }
  });

  it("fails the draws of a worker that dies, and the digest goes out without its charts, saying why", async () => {
    const dying = aWorker({
      entry: await entry("dies.mjs", 'throw new Error("the chart worker fell over");'),
    });
    await expect(dying.draw(ANY_CHART)).rejects.toThrow(/fell over/);
    expect(dying.running).toBe(false);

    const { outcome, sent, logs } = await digestWithCharts(dying);
    expect(outcome.charts).toEqual([]);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.attachments).toEqual([]);
    expect(logs).toContain("charts left out of the digest");
    expect(logs).toContain("the chart worker fell over");
  });

  it("ends a worker that stops answering, failing what it had", async () => {
    const hung = aWorker({
      entry: await entry("hangs.mjs", ""),
      hungAfterMs: 200,
    });
    const draws = [hung.draw(ANY_CHART), hung.draw(ANY_CHART)];
    for (const draw of draws) await expect(draw).rejects.toThrow(/did not answer within 200 ms/);
    expect(hung.running).toBe(false);
    await hung.close();
  });

  it("fails what it had when closed", async () => {
    const quiet = aWorker({
      entry: await entry("quiet.mjs", ""),
    });
    const failed = expect(quiet.draw(ANY_CHART)).rejects.toThrow(/closed/);
    await quiet.close();
    await failed;
    expect(quiet.running).toBe(false);
  });

  it("starts no worker for a chart asked for after close, failing it instead", async () => {
    const ends: string[] = [];
    const worker = aWorker({
      onEnd: (reason: string) => ends.push(reason),
    });
    const data = await aChart();
    expect(pngSize((await worker.draw(data)).png)).toEqual({ width: 1200, height: 520 });
    await worker.close();
    expect(ends).toEqual(["closed"]);

    const after = worker.draw(data);
    expect(worker.running).toBe(false);
    await expect(after).rejects.toThrow(client.ChartWorkerError);
    await expect(after).rejects.toThrow("the chart worker was closed");
    expect(worker.running).toBe(false);
    expect(ends).toEqual(["closed"]);
  });

  it("closes a painter no chart was asked of, and fails a chart asked of it after", async () => {
    const painter = chartPainterOnFirstUse();
    await painter.close();
    const after = painter.draw(await aChart());
    await expect(after).rejects.toThrow(client.ChartWorkerError);
    await expect(after).rejects.toThrow("the chart worker was closed");
    expect(painter.running).toBe(false);
  });

  it("fails a chart whose data cannot be sent to the worker, and keeps drawing the next", async () => {
    const ends: string[] = [];
    const worker = aWorker({
      onEnd: (reason: string) => ends.push(reason),
    });
    const data = await aChart();
    const unsendable = {
      ...data,
      datasets: { ...data.datasets, rows: [{ format: () => "not data" }] },
    } as ChartData;
    try {
      // A promise that fails, not a throw: the caller's `await` sees it like any other failure.
      const refused = worker.draw(unsendable);
      await expect(refused).rejects.toThrow(client.ChartWorkerError);
      await expect(refused).rejects.toThrow(/could not be sent to the chart worker/);
      expect(pngSize((await worker.draw(data)).png)).toEqual({ width: 1200, height: 520 });
    } finally {
      await worker.close();
    }
    // Nothing of the refused chart was left waiting: closing failed no draw and the worker ended once.
    expect(ends).toEqual(["closed"]);
  });

  it("starts without the process's preloads, which the worker has no use for", async () => {
    // A process started with a preload (`--import`, as a TypeScript loader or an APM agent is),
    // whose chart worker says whether the preload ran in it too.
    const preload = join(dir, "preload.mjs");
    await writeFile(preload, "globalThis.preloaded = true;\n");
    const says = await entry(
      "says.mjs",
      "parentPort.postMessage({ id: m.id, error: JSON.stringify({ preloaded: globalThis.preloaded === true, execArgv: process.execArgv }) });",
    );
    const main = join(dir, "main.mjs");
    await writeFile(
      main,
      [
        `import { chartWorker } from ${JSON.stringify(dist("chart-painter/chart-worker-client.js"))};`,
        `const worker = chartWorker({ entry: new URL(${JSON.stringify(says.href)}), setup: {}, idleMs: 30000, hungAfterMs: 30000 });`,
        "const answer = await worker.draw({}).catch((error) => error.message);",
        "await worker.close();",
        "console.log(JSON.stringify({ here: globalThis.preloaded === true, worker: JSON.parse(answer) }));",
      ].join("\n"),
    );
    const { stdout } = await promisify(execFile)(process.execPath, [
      "--import",
      pathToFileURL(preload).href,
      main,
    ]);
    expect(JSON.parse(stdout)).toEqual({ here: true, worker: { preloaded: false, execArgv: [] } });
  });

  it.runIf(process.platform === "linux")(
    "draws at a lower priority than the thread that asks for charts, on Linux",
    async () => {
      const asking = niceOf("/proc/thread-self/stat");
      const lowered = Math.min(19, asking + DRAWING_NICE);
      const worker = aWorker();
      try {
        expect(threadNices()).not.toContain(lowered);
        await worker.draw(await aChart());
        // The worker's thread alone: this one, the asking thread, keeps its priority.
        expect(threadNices()).toContain(lowered);
        expect(niceOf("/proc/thread-self/stat")).toBe(asking);
      } finally {
        await worker.close();
      }
    },
  );
});

/** The nice value of a thread, from its `stat` under /proc. */
function niceOf(statPath: string): number {
  const stat = readFileSync(statPath, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
}

/** The nice values of this process's threads. */
function threadNices(): number[] {
  return readdirSync("/proc/self/task").flatMap((id) => {
    try {
      return [niceOf(`/proc/self/task/${id}/stat`)];
    } catch {
      return []; // the thread ended meanwhile
    }
  });
}
