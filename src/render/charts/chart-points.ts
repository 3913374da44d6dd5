import { wilsonInterval } from "../../alerts/wilson-interval.js";
import type { Period } from "../../periods/types.js";
import type { DailyPoint, Figures } from "../../report/types.js";

// What a trend chart plots, computed from the days before any drawing: one row per day of the
// window with the day's rate, its Wilson interval and the sample behind it. A day without runs
// keeps its row with null values, so the line breaks there instead of dropping to 0%.

/**
 * What a trend chart can show: the digests' two rates, the shares an alert may fire on, and the
 * mean run duration (an alert's, in minutes).
 */
export type ChartMetric =
  | "flakyRate"
  | "runPassRate"
  | "skippedShare"
  | "timedOutShare"
  | "meanRunDuration";

/** How a panel's axis reads: a rate as a percentage, or a duration in minutes from 0. */
export type ChartPanelKind = "rate" | "duration";

/** The panel kind each metric is drawn on. */
export function chartPanelKind(metric: ChartMetric): ChartPanelKind {
  return metric === "meanRunDuration" ? "duration" : "rate";
}

/** The rates a digest's subject chart draws, one panel each (an alert's fire may chart the shares too). */
export type SubjectMetric = Extract<ChartMetric, "flakyRate" | "runPassRate">;

/** How a chart of each metric is named in its file name. */
export const CHART_SLUG: Record<ChartMetric, string> = {
  flakyRate: "flaky-rate",
  runPassRate: "run-pass-rate",
  skippedShare: "skipped-share",
  timedOutShare: "timed-out-share",
  meanRunDuration: "mean-run-duration",
};

/** Whether a rising line is bad: every charted rate but the run pass rate. */
export function risesBad(metric: ChartMetric): boolean {
  return metric !== "runPassRate";
}

/** Confidence of the band drawn around each day's rate. */
const BAND_CONFIDENCE = 0.95;

export interface ChartPoint {
  date: string;
  /** Fraction (minutes for a duration); null on a day without data (drawn as a gap). */
  rate: number | null;
  /** Wilson interval of the day's rate; null with the rate, and for a duration (no band). */
  low: number | null;
  high: number | null;
  /** Results (flaky rate) or runs (run pass rate) behind the rate. */
  sample: number;
}

const MINUTE_MS = 60_000;

/**
 * Hits and trials of a metric in one span's figures: hits / trials is the metric. For the mean
 * run duration, minutes run over runs, so summed days weigh each day by its runs.
 */
export function metricCounts(metric: ChartMetric, f: Figures): { hits: number; trials: number } {
  switch (metric) {
    case "meanRunDuration":
      return f.meanRunDurationMs === null
        ? { hits: 0, trials: 0 }
        : { hits: (f.meanRunDurationMs / MINUTE_MS) * f.runs, trials: f.runs };
    case "flakyRate":
      return { hits: f.testsFlaky, trials: f.tests };
    case "skippedShare":
      return { hits: f.testsSkipped, trials: f.tests };
    case "timedOutShare":
      return { hits: f.testsTimedOut, trials: f.tests };
    case "runPassRate":
      return { hits: f.runsPassed, trials: f.runs };
  }
}

/**
 * Why these days cannot be charted: the first day whose counts of `metric` are not finite
 * numbers (NaN, Infinity), in words; null when every day's can.
 */
export function chartMetricCountsProblem(
  metric: ChartMetric,
  days: readonly DailyPoint[],
): string | null {
  for (const { date, figures } of days) {
    const { hits, trials } = metricCounts(metric, figures);
    if (!Number.isFinite(hits) || !Number.isFinite(trials)) {
      return `cannot be drawn: its counts on ${date} are not a number (${hits} of ${trials})`;
    }
  }
  return null;
}

/** One point per day given, oldest first. */
export function chartPoints(metric: ChartMetric, days: readonly DailyPoint[]): ChartPoint[] {
  return days.map(({ date, figures }) => {
    const { hits, trials } = metricCounts(metric, figures);
    if (trials === 0) return { date, rate: null, low: null, high: null, sample: 0 };
    // A mean has no Wilson interval: the line alone.
    if (chartPanelKind(metric) === "duration") {
      return { date, rate: hits / trials, low: null, high: null, sample: trials };
    }
    const band = wilsonInterval(hits, trials, BAND_CONFIDENCE);
    return { date, rate: hits / trials, low: band.low, high: band.high, sample: trials };
  });
}

/** The rate over a span of the days, from their summed counts; null without data. */
export function spanRate(
  metric: ChartMetric,
  days: readonly DailyPoint[],
  span: Period,
): number | null {
  let hits = 0;
  let trials = 0;
  for (const day of days) {
    if (day.date < span.start || day.date > span.end) continue;
    const counts = metricCounts(metric, day.figures);
    hits += counts.hits;
    trials += counts.trials;
  }
  return trials === 0 ? null : hits / trials;
}
