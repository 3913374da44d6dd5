import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { TREND_CHART_VEGA } from "./chart-assets.js";
import { chartWorker } from "./chart-worker-client.js";
import type { ChartPainter, DrawOptions } from "./draw-chart.js";

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
 * only the small objects. Collected young, they go within a chart or two instead of piling up
 * (measured: the worker's peak 15–20 MB lower; docs/decisions/0006).
 */
const CHART_WORKER_LIMITS = { maxYoungGenerationSizeMb: 4 } as const;

const WORKER_ENTRY = new URL("./chart-worker.js", import.meta.url);

/** A painter of trend charts with an owner, who ends it with `close`. */
export interface TrendChartPainter extends ChartPainter {
  /** Whether a chart worker of this painter is running now (never, drawing in this thread). */
  readonly running: boolean;
  /** Ends its worker, if one is running, failing the draws it had. */
  close(): Promise<void>;
}

/**
 * A painter of trend charts: a chart worker of its own, started on its first chart and ended
 * when idle or closed; or this thread, when there is no worker entry or the fonts are not the
 * bundled one.
 */
export function trendChartPainter(options: DrawOptions): TrendChartPainter {
  if (options.fontFiles === undefined && existsSync(fileURLToPath(WORKER_ENTRY))) {
    return chartWorker({
      entry: WORKER_ENTRY,
      setup: { ...options, specFile: TREND_CHART_VEGA },
      idleMs: CHART_WORKER_IDLE_MS,
      hungAfterMs: CHART_WORKER_HUNG_MS,
      resourceLimits: CHART_WORKER_LIMITS,
    });
  }
  return trendChartPainterInThisThread(options);
}

/** A painter in this thread, the spec read and parsed and Vega and resvg loaded on its first chart. */
export function trendChartPainterInThisThread(options: DrawOptions): TrendChartPainter {
  let painter: Promise<ChartPainter> | null = null;
  return {
    running: false,
    async draw(data) {
      painter ??= import("./draw-chart.js").then(({ chartPainter, parseChart }) =>
        chartPainter(parseChart(JSON.parse(readFileSync(TREND_CHART_VEGA, "utf8"))), options),
      );
      return (await painter).draw(data);
    },
    async close() {},
  };
}
