import type { Period } from "../../periods/types.js";
import type { DailyPoint } from "../../report/types.js";
import { chartAltText } from "./chart-alt-text.js";
import { CHART_FONT } from "./chart-assets.js";
import { type ChartMetric, chartPoints } from "./chart-points.js";
import {
  type ChartThreshold,
  chartMetricName,
  trendChartData,
  trendChartSpec,
} from "./chart-spec.js";
import type { ChartPainter } from "./draw-chart.js";
import { trendChartPainterInThisThread } from "./trend-chart-painter.js";

// Trend charts: a rate by day over the chart window, as a PNG with its words.

/** CSS pixels: fits a 390 px phone screen with the mail's margins; drawn at 2×. */
export const CHART_SIZE = { width: 360, height: 200, scale: 2 } as const;

const SUBTITLE = ["grey: prior period · blue: this period", "band: 95% interval of each day"];

/** The trend chart as Vega-Lite, what TREND_CHART_VEGA (chart-assets.ts) is compiled from. */
export function trendChartLiteSpec(): Record<string, unknown> {
  return trendChartSpec({ ...CHART_SIZE, font: CHART_FONT.family, subtitle: SUBTITLE });
}

export interface TrendChartInput {
  metric: ChartMetric;
  /** Who the chart is about: "Checkout (team)", "Web E2E". */
  subject: string;
  /** The days drawn: the digest's period and its comparison window. */
  window: Period;
  /** Every day of the window, oldest first. */
  days: readonly DailyPoint[];
  periods: { current: Period; prior: Period };
  /** The team's alert thresholds on this metric, as fractions; [] without an alert. */
  thresholds: readonly ChartThreshold[];
}

export interface Chart {
  /** File-name-safe and unique within a digest: "team-flaky-rate". */
  name: string;
  title: string;
  alt: string;
  png: Buffer;
  /** Device pixels of the PNG. */
  width: number;
  height: number;
  /** CSS pixels to show it at. */
  cssWidth: number;
  cssHeight: number;
}

export interface TrendCharts {
  draw(input: TrendChartInput, name: string): Promise<Chart>;
}

export interface TrendChartOptions {
  /** Font files to set text in; the bundled font by default. */
  fontFiles?: readonly string[];
  /**
   * What draws the charts: the process's painter (`Clients.chartPainter`, a chart worker in the
   * built package); by default this thread, with a painter of this drawer's own.
   */
  painter?: ChartPainter;
}

/** A drawer of trend charts, for as many charts as a digest has (one Vega view for them all). */
export function trendCharts(options: TrendChartOptions = {}): TrendCharts {
  const painter =
    options.painter ??
    trendChartPainterInThisThread({
      width: CHART_SIZE.width,
      scale: CHART_SIZE.scale,
      fontFiles: options.fontFiles,
    });
  return {
    async draw(input, name) {
      const title = `${chartMetricName(input.metric)} · ${input.subject}`;
      const data = trendChartData({
        metric: input.metric,
        title,
        window: input.window,
        periods: input.periods,
        points: chartPoints(input.metric, input.days),
        thresholds: input.thresholds,
      });
      const drawn = await painter.draw(data);
      return {
        name,
        title,
        alt: chartAltText({ ...input, title }),
        png: drawn.png,
        width: drawn.width,
        height: drawn.height,
        cssWidth: CHART_SIZE.width,
        cssHeight: CHART_SIZE.height,
      };
    },
  };
}

/** Draws one trend chart (a digest draws many with one `trendCharts()`). */
export function renderTrendChart(input: TrendChartInput, name: string): Promise<Chart> {
  return trendCharts().draw(input, name);
}
