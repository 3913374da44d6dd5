import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { CHART_SPECS } from "../render/charts/chart-assets.js";
import type { DrawOptions } from "../render/charts/draw-chart.js";
import { trendChartPainterInThisThread } from "../render/charts/trend-chart.js";
import { chartWorker, type OwnedChartPainter } from "./chart-worker-client.js";

// Where trend charts are drawn. In the built package (dist/), in a chart worker: the worker's
// compiled entry is beside this module. Running from the TypeScript sources (unit tests, tsx),
// where a worker cannot load a .ts file on Node 20, in this thread. Both run the same drawing
// code (draw-chart.ts) on the same data. Whoever builds a painter owns it and closes it (the
// process's clients, create-deps.ts): nothing here outlives its owner.

/** How long the chart worker is kept with nothing to draw: a digest's charts come in one burst. */
export const CHART_WORKER_IDLE_MS = 30_000;
/** How long a chart worker with draws outstanding may go without answering before it is ended as hung. */
export const CHART_WORKER_HUNG_MS = 30_000;

/**
 * A small young generation for the worker's heap: resvg's images are small JS objects holding
 * large native buffers (a 1.1 MB pixmap each), freed only when V8 collects them, and V8 sees
 * only the small objects. Collected young, they go within a chart or two instead of piling up.
 * Measured (docs/performance.md, the charts' third and fifth stops): 4 MB took the worker's
 * peak 15–20 MB below V8's default, and 2 MB another 3–5 MB, with no time lost.
 */
const CHART_WORKER_LIMITS = { maxYoungGenerationSizeMb: 2 } as const;

const WORKER_ENTRY = new URL("./chart-worker.js", import.meta.url);

/**
 * A painter of trend charts: a chart worker of its own, started on its first chart and ended
 * when idle or closed; or this thread, when there is no worker entry or the fonts are not the
 * bundled one.
 */
export function trendChartPainter(options: DrawOptions): OwnedChartPainter {
  if (options.fontFiles === undefined && existsSync(fileURLToPath(WORKER_ENTRY))) {
    return chartWorker({
      entry: WORKER_ENTRY,
      setup: { ...options, specFiles: CHART_SPECS },
      idleMs: CHART_WORKER_IDLE_MS,
      hungAfterMs: CHART_WORKER_HUNG_MS,
      resourceLimits: CHART_WORKER_LIMITS,
    });
  }
  const inThisThread = trendChartPainterInThisThread(options);
  return { running: false, draw: (data) => inThisThread.draw(data), async close() {} };
}
