import { addDays, datesIn } from "../../periods/calendar-date.js";
import type { Period } from "../../periods/types.js";
import { fixed } from "../format.js";
import type { SubjectMetric } from "./chart-points.js";
import { type ChartMetric, type ChartPoint, chartPanelKind, risesBad } from "./chart-points.js";
import {
  CHART_COLOURS,
  CHART_OPACITY,
  type ChartData,
  type ChartSpecName,
  type ChartThreshold,
  SUBJECT_PANELS,
} from "./chart-spec.js";

// The datasets and parameters a chart feeds its spec (chart-spec.ts), worked out here, before
// any drawing, so that what the chart shows is plain data: which days carry a date label,
// which rates a tick, how many decimals they need, where a span's name sits.

/** What the shaded spans are called on the chart: "this week", "prior week". */
export interface PeriodNames {
  current: string;
  prior: string;
}

/** One panel: a rate by day and the team's thresholds on it. */
export interface ChartPanelInput {
  metric: ChartMetric;
  points: readonly ChartPoint[];
  thresholds: readonly ChartThreshold[];
}

export interface ChartDataInput {
  title: string;
  window: Period;
  periods: { current: Period; prior: Period };
  periodNames: PeriodNames;
  /** CSS pixels of the plot's width, near enough to tell whether a span's name fits in it. */
  plotWidth: number;
}

/** The trend chart's data: one rate. */
export function trendChartData(input: ChartDataInput, panel: ChartPanelInput): ChartData {
  return chartData("trend", input, [{ ...panel, suffix: "" }]);
}

/** The subject chart's data: both rates, flaky above run pass. */
export function subjectChartData(
  input: ChartDataInput,
  panels: Readonly<Record<SubjectMetric, Omit<ChartPanelInput, "metric">>>,
): ChartData {
  return chartData(
    "subject",
    input,
    SUBJECT_PANELS.map(({ metric, suffix }) => ({ metric, suffix, ...panels[metric] })),
  );
}

function chartData(
  spec: ChartSpecName,
  input: ChartDataInput,
  panels: readonly (ChartPanelInput & { suffix: string })[],
): ChartData {
  const { window, periods } = input;
  const shades = [
    { period: periods.prior, name: input.periodNames.prior, opacity: CHART_OPACITY.prior },
    { period: periods.current, name: input.periodNames.current, opacity: CHART_OPACITY.current },
  ].flatMap(({ period, name, opacity }) => {
    const inside = clip(period, window);
    return inside ? [{ ...inside, name, opacity }] : [];
  });
  const datasets: ChartData["datasets"] = {
    spans: shades.map((s) => ({
      t: dayStart(s.start),
      t2: dayStart(addDays(s.end, 1)),
      fill: CHART_COLOURS.prior,
      opacity: s.opacity,
    })),
  };
  const signals: ChartData["signals"] = {
    chartTitle: input.title,
    xStart: dayStart(window.start),
    xEnd: dayStart(addDays(window.end, 1)),
    xTicks: dateTicks(window, periods.current.start).map(noon),
  };
  for (const [index, panel] of panels.entries()) {
    const [yLow, yHigh] = yDomain(panel.metric, panel.points, panel.thresholds);
    const step = tickStep(yHigh - yLow);
    datasets[`rows${panel.suffix}`] = panel.points.map((p) => ({
      t: noon(p.date),
      rate: p.rate,
      low: p.low,
      high: p.high,
    }));
    datasets[`rules${panel.suffix}`] = panel.thresholds.map((th) => ({
      rate: th.value,
      label: `${th.level} ${formatChartValue(panel.metric, th.value)}`,
      colour: CHART_COLOURS[th.level],
      dash: th.level === "warn" ? [5, 3] : [1, 0],
    }));
    if (index === 0) {
      datasets[`spanNames${panel.suffix}`] = spanNames(shades, input, [yLow, yHigh]);
    }
    signals[`yLow${panel.suffix}`] = yLow;
    signals[`yHigh${panel.suffix}`] = yHigh;
    signals[`yTicks${panel.suffix}`] = ticks(yLow, yHigh, step);
    const duration = chartPanelKind(panel.metric) === "duration";
    signals[`yFormat${panel.suffix}`] = duration
      ? `.${minuteDecimalsOf(step)}f`
      : `.${decimalsOf(step)}%`;
    signals[`yUnit${panel.suffix}`] = duration ? " min" : "";
  }
  return { spec, datasets, signals };
}

/** An ISO date's start (UTC-anchored: the chart's days are calendar days, not instants). */
const dayStart = (date: string) => Date.parse(`${date}T00:00:00Z`);
/** Where a day's point sits, and its date label with it: the middle of its column. */
const noon = (date: string) => Date.parse(`${date}T12:00:00Z`);

/** Roughly DejaVu Sans' mean advance at 10 px, to tell whether a span's name fits in it. */
const NAME_PX_PER_CHAR = 5.6;

/**
 * Each span's name at the top of its shade, right-aligned to its end. A name wider than its
 * span (a daily digest's one-day shade) runs left over the span before; the prior span's
 * name then goes one line lower, so the two never overlap.
 */
function spanNames(
  shades: readonly (Period & { name: string })[],
  input: ChartDataInput,
  [yLow, yHigh]: [number, number],
): Record<string, unknown>[] {
  const days = datesIn(input.window).length;
  const fits = (shade: Period & { name: string }) =>
    (datesIn(shade).length / days) * input.plotWidth >= shade.name.length * NAME_PX_PER_CHAR + 8;
  const crowded = shades.some((shade) => !fits(shade));
  const line = (yHigh - yLow) / 9;
  return shades.map((shade, index) => ({
    t: dayStart(addDays(shade.end, 1)),
    // The current period's name (last) on the top line; the prior's below it when crowded.
    rate: yHigh - (crowded && index < shades.length - 1 ? line : 0),
    label: shade.name,
  }));
}

/**
 * The days that carry a date label: every `step` days counted back and forward from the
 * current period's first day (so it has one), `step` chosen for at most 9 labels.
 */
function dateTicks(window: Period, anchor: string): string[] {
  const days = datesIn(window);
  const step = [1, 2, 7, 14, 28, 56, 91, 182, 364].find((s) => days.length / s <= 9) ?? 364;
  const at = days.indexOf(anchor);
  const origin = at === -1 ? days.length - 1 : at;
  return days.filter((_, i) => (i - origin) % step === 0);
}

/** The rate axis's step: 1, 2 or 5 times a power of ten, at most 5 steps over `range`. */
function tickStep(range: number): number {
  const power = 10 ** Math.floor(Math.log10(range / 5));
  const multiple = [1, 2, 5, 10].find((m) => range / (m * power) <= 5 + 1e-9) ?? 10;
  return multiple * power;
}

/** The tick values from `low` to `high`, `step` apart, rounded clear of float noise. */
function ticks(low: number, high: number, step: number): number[] {
  const values: number[] = [];
  for (let i = Math.ceil(low / step - 1e-9); i * step <= high + 1e-9; i++) {
    values.push(Number((i * step).toFixed(10)));
  }
  return values;
}

/** Decimals a percentage needs at this step: none at 1 pp and up, one at 0.5 pp, two at 0.05. */
function decimalsOf(step: number): number {
  return Math.max(0, -Math.floor(Math.log10(step * 100) + 1e-9));
}

/** Decimals a minutes label needs at this step: none at 1 min and up, one at 0.5. */
function minuteDecimalsOf(step: number): number {
  return Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
}

/** The part of `period` inside `window`, or null when they do not meet. */
function clip(period: Period, window: Period): Period | null {
  const start = period.start > window.start ? period.start : window.start;
  const end = period.end < window.end ? period.end : window.end;
  return start > end ? null : { start, end };
}

/**
 * The value axis: a duration's minutes from 0; flaky rates from 0 to a little above the highest day or threshold (a 2% rate
 * is not drawn on a 0–100% axis); pass rates from a little below the lowest to 100%.
 */
function yDomain(
  metric: ChartMetric,
  points: readonly ChartPoint[],
  thresholds: readonly ChartThreshold[],
): [number, number] {
  // The band is left out: a wide one on a day of 40 tests would squash every other day into
  // the bottom of the chart. It runs off the edge instead, which reads as what it is.
  const values = [
    ...points.flatMap((p) => (p.rate === null ? [] : [p.rate])),
    ...thresholds.map((t) => t.value),
  ];
  // Minutes from 0 to a round number above the longest day or threshold; no cap at 100%.
  if (chartPanelKind(metric) === "duration") return [0, niceStep(Math.max(1, ...values) * 1.15)];
  if (risesBad(metric)) {
    const top = Math.max(0.01, ...values);
    return [0, Math.min(1, niceStep(top * 1.15))];
  }
  const bottom = Math.min(0.99, ...values);
  return [Math.max(0, 1 - niceStep((1 - bottom) * 1.15)), 1];
}

/** Rounds up to 1, 2, 2.5 or 5 times a power of ten, so the axis ends on a round percentage. */
function niceStep(value: number): number {
  const power = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 2.5, 5, 10].find((m) => m * power >= value - 1e-12) ?? 10;
  return step * power;
}

/** "5%", "2.5%"; for a duration "15 min", "7.5 min". */
export function formatChartValue(metric: ChartMetric, value: number): string {
  const shown = chartPanelKind(metric) === "duration" ? value : value * 100;
  const unit = chartPanelKind(metric) === "duration" ? " min" : "%";
  return `${fixed(shown, Number.isInteger(shown) ? 0 : 1)}${unit}`;
}
