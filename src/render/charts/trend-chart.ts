import type { Period, PeriodPair } from "../../periods/types.js";
import type { DailyPoint } from "../../report/types.js";
import { chartAltText } from "./chart-alt-text.js";
import { CHART_FONT, CHART_SPECS } from "./chart-assets.js";
import {
  type ChartDataInput,
  type PeriodNames,
  subjectChartData,
  trendChartData,
} from "./chart-data.js";
import type { SubjectMetric } from "./chart-points.js";
import { type ChartMetric, chartMetricCountsProblem, chartPoints } from "./chart-points.js";
import {
  type ChartData,
  type ChartThreshold,
  chartMetricName,
  SUBJECT_PANELS,
  subjectChartSpec,
  trendChartSpec,
} from "./chart-spec.js";
import type { ChartPainter, DrawOptions } from "./draw-chart.js";

// Charts of rates by day over the chart window, as PNGs with their words: a subject's (both
// rates, a digest's) and a trend chart's (one rate, an alert fire's).

/**
 * CSS pixels: as wide as the mail's card (600), drawn at 2×; the mail lets it shrink to a
 * phone's width. `height` is the trend chart's; the subject chart's panels are `panelHeight`
 * each, and its whole height follows from its layout.
 */
export const CHART_SIZE = { width: 600, height: 260, panelHeight: 130, scale: 2 } as const;

/** How charts are drawn: CHART_SIZE's width and scale, in the bundled font. */
export const TREND_CHART_DRAW: DrawOptions = { width: CHART_SIZE.width, scale: CHART_SIZE.scale };

const SUBTITLE = ["line: each day's rate · band: its 95% interval"];

/** The plot's width, near enough for chart-data.ts to tell whether a span's name fits. */
const PLOT_WIDTH = CHART_SIZE.width - 70;

/** The trend chart as Vega-Lite, what CHART_SPECS.trend (chart-assets.ts) is compiled from. */
export function trendChartLiteSpec(): Record<string, unknown> {
  return trendChartSpec({ ...CHART_SIZE, font: CHART_FONT.family, subtitle: SUBTITLE });
}

/** The subject chart as Vega-Lite, what CHART_SPECS.subject is compiled from. */
export function subjectChartLiteSpec(): Record<string, unknown> {
  return subjectChartSpec({
    width: CHART_SIZE.width,
    height: CHART_SIZE.panelHeight,
    font: CHART_FONT.family,
    subtitle: SUBTITLE,
  });
}

export interface TrendChartInput {
  metric: ChartMetric;
  /** Who the chart is about: "Checkout · all projects", "Web E2E". */
  subject: string;
  /** The days drawn: the digest's period and its comparison window. */
  window: Period;
  /** Every day of the window, oldest first. */
  days: readonly DailyPoint[];
  periods: { current: Period; prior: Period };
  /** What the shaded spans are called; "this period" and "prior period" when not given. */
  periodNames?: PeriodNames;
  /** The team's alert thresholds on this metric, as fractions; [] without an alert. */
  thresholds: readonly ChartThreshold[];
}

/** A subject's chart: both rates, each with the team's thresholds on it. */
export interface SubjectChartInput extends Omit<TrendChartInput, "metric" | "thresholds"> {
  thresholds: Readonly<Record<SubjectMetric, readonly ChartThreshold[]>>;
}

export interface Chart {
  /** File-name-safe and unique within a digest: "team-rates". */
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
  /** One rate's chart (an alert fire's). */
  draw(input: TrendChartInput, name: string): Promise<Chart>;
  /** A subject's chart of both rates (a digest's). */
  drawSubject(input: SubjectChartInput, name: string): Promise<Chart>;
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
 * A painter of charts in this thread, each spec read and parsed and Vega and resvg loaded on
 * its first chart.
 */
export function trendChartPainterInThisThread(
  options: DrawOptions = TREND_CHART_DRAW,
): ChartPainter {
  let painter: Promise<ChartPainter> | null = null;
  return {
    async draw(data) {
      painter ??= import("./draw-chart.js").then(({ painterOfSpecFiles }) =>
        painterOfSpecFiles(CHART_SPECS, options),
      );
      return (await painter).draw(data);
    },
  };
}

/** A trend chart's title: the metric, then who it is about. */
function trendChartTitle(input: Pick<TrendChartInput, "metric" | "subject">): string {
  return `${chartMetricName(input.metric)} · ${input.subject}`;
}

const DEFAULT_PERIOD_NAMES: PeriodNames = { current: "this period", prior: "prior period" };

/** What the shaded spans of a digest's charts are called: "this week", "prior week". */
export function periodNamesOf(periods: Pick<PeriodPair, "kind" | "compareTo">): PeriodNames {
  const noun = {
    previous_day: "day",
    since_previous_run: "period",
    previous_week: "week",
    last_7_days: "week",
    previous_month: "month",
    last_28_days: "28 days",
    previous_quarter: "quarter",
  }[periods.kind];
  const prior = {
    previous_period: `prior ${noun}`,
    same_period_last_week: "a week before",
    same_period_last_year: "a year before",
    median_of_4_weeks: "4 weeks before",
  }[periods.compareTo];
  return { current: `this ${noun}`, prior };
}

function dataInput(
  input: Omit<TrendChartInput, "metric" | "thresholds">,
  title: string,
): ChartDataInput {
  return {
    title,
    window: input.window,
    periods: input.periods,
    periodNames: input.periodNames ?? DEFAULT_PERIOD_NAMES,
    plotWidth: PLOT_WIDTH,
  };
}

/** A trend chart's data as a painter takes it (the compiled spec's datasets and signals). */
export function trendChartDataOf(input: TrendChartInput): ChartData {
  return trendChartData(dataInput(input, trendChartTitle(input)), {
    metric: input.metric,
    points: chartPoints(input.metric, input.days),
    thresholds: input.thresholds,
  });
}

/** A subject chart's data as a painter takes it. */
export function subjectChartDataOf(input: SubjectChartInput): ChartData {
  const panel = (metric: SubjectMetric) => ({
    points: chartPoints(metric, input.days),
    thresholds: input.thresholds[metric],
  });
  return subjectChartData(dataInput(input, input.subject), {
    flakyRate: panel("flakyRate"),
    runPassRate: panel("runPassRate"),
  });
}

/**
 * A drawer of charts, for as many as a digest has, all drawn by one painter (in this thread,
 * one Vega view a spec for them all; a chart worker keeps its own).
 */
export function trendCharts(options: TrendChartOptions = {}): TrendCharts {
  const painter =
    options.painter ??
    trendChartPainterInThisThread({ ...TREND_CHART_DRAW, fontFiles: options.fontFiles });
  const chartOf = async (name: string, title: string, alt: string, data: ChartData) => {
    const drawn = await painter.draw(data);
    return {
      name,
      title,
      alt,
      png: drawn.png,
      width: drawn.width,
      height: drawn.height,
      cssWidth: Math.round(drawn.width / CHART_SIZE.scale),
      cssHeight: Math.round(drawn.height / CHART_SIZE.scale),
    };
  };
  return {
    async draw(input, name) {
      refuseNaN(input, input.metric);
      const title = trendChartTitle(input);
      return chartOf(name, title, chartAltText({ ...input, title }), trendChartDataOf(input));
    },
    async drawSubject(input, name) {
      for (const { metric } of SUBJECT_PANELS) refuseNaN(input, metric);
      // Both rates in words, one after the other, as the panels are.
      const alt = SUBJECT_PANELS.map(({ metric }) =>
        chartAltText({
          ...input,
          metric,
          thresholds: input.thresholds[metric],
          title: trendChartTitle({ metric, subject: input.subject }),
        }),
      ).join(" ");
      return chartOf(name, input.subject, alt, subjectChartDataOf(input));
    },
  };
}

/**
 * A chart of NaN draws as a flat line and says "NaN%" in its alt text: refused instead, so
 * the digest goes out without its charts and the log says why.
 */
function refuseNaN(input: Omit<TrendChartInput, "metric" | "thresholds">, metric: ChartMetric) {
  const problem = chartMetricCountsProblem(metric, input.days);
  if (problem !== null) {
    throw new Error(`the ${trendChartTitle({ metric, subject: input.subject })} chart ${problem}`);
  }
}

/** Draws one trend chart (a digest draws many with one `trendCharts()`). */
export function renderTrendChart(input: TrendChartInput, name: string): Promise<Chart> {
  return trendCharts().draw(input, name);
}

/** Draws one subject chart. */
export function renderSubjectChart(input: SubjectChartInput, name: string): Promise<Chart> {
  return trendCharts().drawSubject(input, name);
}
