import { ChartWorkerError } from "./chart-worker-client.js";
import type { TrendChartPainter } from "./trend-chart-painter.js";

/**
 * The trend chart painter of a process's clients, built on the first chart asked of it: until
 * then nothing of the charts is loaded or started (the painter's module, Vega, resvg, a
 * worker), so a process whose digests and alerts have no charts pays nothing for them.
 * `close` ends whatever the first chart started; a chart asked for after it fails, starting nothing.
 */
export function chartPainterOnFirstUse(): TrendChartPainter {
  let built: Promise<TrendChartPainter> | null = null;
  let painter: TrendChartPainter | null = null;
  let closed = false;
  const load = () => {
    if (closed) return Promise.reject(new ChartWorkerError("the chart worker was closed"));
    built ??= Promise.all([import("./trend-chart.js"), import("./trend-chart-painter.js")]).then(
      ([{ CHART_SIZE }, { trendChartPainter }]) => {
        painter = trendChartPainter({ width: CHART_SIZE.width, scale: CHART_SIZE.scale });
        return painter;
      },
    );
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
