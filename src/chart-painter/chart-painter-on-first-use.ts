import {
  CHART_WORKER_CLOSED,
  ChartWorkerError,
  type OwnedChartPainter,
} from "./chart-worker-client.js";

/**
 * The trend chart painter of a process's clients, built on the first chart asked of it: until
 * then nothing of the charts is loaded or started (the painter's module, Vega, resvg, a
 * worker), so a process whose digests and alerts have no charts pays nothing for them.
 * `close` ends whatever the first chart started; a chart asked for after it fails, starting nothing.
 */
export function chartPainterOnFirstUse(): OwnedChartPainter {
  let built: Promise<OwnedChartPainter> | null = null;
  let painter: OwnedChartPainter | null = null;
  let closed = false;
  const load = () => {
    if (closed) return Promise.reject(new ChartWorkerError(CHART_WORKER_CLOSED));
    built ??= Promise.all([
      import("../render/charts/trend-chart.js"),
      import("./trend-chart-painter.js"),
    ]).then(([{ TREND_CHART_DRAW }, { trendChartPainter }]) => {
      painter = trendChartPainter(TREND_CHART_DRAW);
      return painter;
    });
    return built;
  };
  return {
    get running() {
      return painter?.running ?? false;
    },
    draw: async (data) => (await load()).draw(data),
    async close() {
      closed = true;
      // A painter that could not be loaded failed its draws already; there is nothing to end.
      const loaded = await built?.catch(() => null);
      await loaded?.close();
    },
  };
}
