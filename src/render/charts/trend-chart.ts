import type { Period } from "../../periods/types.js";
import type { DailyPoint } from "../../report/types.js";
import { chartAltText } from "./chart-alt-text.js";
import { CHART_FONT, TREND_CHART_VEGA } from "./chart-assets.js";
import { type ChartMetric, chartMetricCountsProblem, chartPoints } from "./chart-points.js";
import {
  type ChartData,
  type ChartThreshold,
  chartMetricName,
  trendChartData,
  trendChartSpec,
} from "./chart-spec.js";
import type { ChartPainter, DrawOptions } from "./draw-chart.js";

// Trend charts: a rate by day over the chart window, as a PNG with its words.

/** CSS pixels: fits a 390 px phone screen with the mail's margins; drawn at 2×. */
export const CHART_SIZE = { width: 360, height: 200, scale: 2 } as const;

/** How trend charts are drawn: CHART_SIZE's width and scale, in the bundled font. */
export const TREND_CHART_DRAW: DrawOptions = { width: CHART_SIZE.width, scale: CHART_SIZE.scale };

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

/**
 * What draws the charts: the process's painter (`Clients.chartPainter`, a chart worker in the
 * built package), whose fonts are its own; or, by default, a painter of this drawer's own in
 * this thread, in `fontFiles` (the bundled font by default).
 */
export type TrendChartOptions =
  | { painter: ChartPainter; fontFiles?: never }
  | { painter?: never; fontFiles?: readonly string[] };

/**
 * A painter of trend charts in this thread, the spec read and parsed and Vega and resvg loaded
 * on its first chart.
 */
export function trendChartPainterInThisThread(
  options: DrawOptions = TREND_CHART_DRAW,
): ChartPainter {
  let painter: Promise<ChartPainter> | null = null;
  return {
    async draw(data) {
      painter ??= import("./draw-chart.js").then(({ painterOfSpecFile }) =>
        painterOfSpecFile(TREND_CHART_VEGA, options),
      );
      return (await painter).draw(data);
    },
  };
}

/** A trend chart's title: the metric, then who it is about. */
function trendChartTitle(input: Pick<TrendChartInput, "metric" | "subject">): string {
  return `${chartMetricName(input.metric)} · ${input.subject}`;
}

/** A trend chart's data as a painter takes it (the compiled spec's datasets and signals). */
export function trendChartDataOf(input: TrendChartInput): ChartData {
  return trendChartData({
    metric: input.metric,
    title: trendChartTitle(input),
    window: input.window,
    periods: input.periods,
    points: chartPoints(input.metric, input.days),
    thresholds: input.thresholds,
  });
}

/**
 * A drawer of trend charts, for as many charts as a digest has, all drawn by one painter (in
 * this thread, one Vega view for them all; a chart worker keeps one view of its own).
 */
export function trendCharts(options: TrendChartOptions = {}): TrendCharts {
  const painter =
    options.painter ??
    trendChartPainterInThisThread({ ...TREND_CHART_DRAW, fontFiles: options.fontFiles });
  return {
    async draw(input, name) {
      // A chart of NaN draws as a flat line and says "NaN%" in its alt text: refused instead,
      // so the digest goes out without its charts and the log says why.
      const problem = chartMetricCountsProblem(input.metric, input.days);
      if (problem !== null) throw new Error(`the ${trendChartTitle(input)} chart ${problem}`);
      const title = trendChartTitle(input);
      const drawn = await painter.draw(trendChartDataOf(input));
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
