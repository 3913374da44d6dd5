import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Runtime } from "vega";
import { TREND_CHART_VEGA } from "./chart-assets.js";
import { type ChartWorker, chartWorker } from "./chart-worker-client.js";
import type { ChartPainter, DrawOptions } from "./draw-chart.js";

// Where trend charts are drawn. In the built package (dist/), in the chart worker: the
// worker's compiled entry is beside this module. Running from the TypeScript sources (unit
// tests, tsx), where a worker cannot load a .ts file on Node 20, in this thread. Both run the
// same drawing code (draw-chart.ts) on the same data.

/** How long the chart worker is kept with nothing to draw: a digest's charts come in one burst. */
export const CHART_WORKER_IDLE_MS = 30_000;
/** How long a chart worker with draws outstanding may go without answering before it is ended as hung. */
export const CHART_WORKER_HUNG_MS = 30_000;

/**
 * A small young generation for the worker's heap: resvg's images are small JS objects holding
 * large native buffers (a 1.1 MB pixmap each), freed only when V8 collects them, and V8 sees
 * only the small objects. Collected young, they go within a chart or two instead of piling up
 * (measured: the worker's peak 15–20 MB lower; docs/decisions/0006).
 */
const CHART_WORKER_LIMITS = { maxYoungGenerationSizeMb: 4 } as const;

const WORKER_ENTRY = new URL("./chart-worker.js", import.meta.url);

/** The one chart worker of the process, started on its first chart; it ends itself when idle. */
let shared: ChartWorker | null = null;
/** The spec parsed for drawing in this thread (tests, tsx), kept for the process. */
let parsed: Promise<Runtime> | null = null;

/** A painter of trend charts: the shared worker, or this thread when there is no worker entry or the fonts are not the bundled one. */
export function trendChartPainter(options: DrawOptions): ChartPainter {
  if (options.fontFiles === undefined && existsSync(fileURLToPath(WORKER_ENTRY))) {
    shared ??= chartWorker({
      entry: WORKER_ENTRY,
      setup: { ...options, specFile: TREND_CHART_VEGA },
      idleMs: CHART_WORKER_IDLE_MS,
      hungAfterMs: CHART_WORKER_HUNG_MS,
      resourceLimits: CHART_WORKER_LIMITS,
    });
    return shared;
  }
  return inThisThread(options);
}

/** Ends the chart worker, if one is running (the daemon's stop). */
export async function closeChartWorker(): Promise<void> {
  const closing = shared;
  shared = null;
  await closing?.close();
}

/** A painter in this thread, Vega and resvg loaded on its first chart. */
function inThisThread(options: DrawOptions): ChartPainter {
  let painter: Promise<ChartPainter> | null = null;
  return {
    async draw(data) {
      painter ??= import("./draw-chart.js").then(async ({ chartPainter, parseChart }) => {
        parsed ??= Promise.resolve(parseChart(JSON.parse(readFileSync(TREND_CHART_VEGA, "utf8"))));
        return chartPainter(await parsed, options);
      });
      return (await painter).draw(data);
    },
  };
}
