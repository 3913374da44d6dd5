import { addDays } from "../../periods/calendar-date.js";
import type { Period } from "../../periods/types.js";
import { fixed } from "../format.js";
import { type ChartMetric, type ChartPoint, risesBad } from "./chart-points.js";

// A trend chart as a Vega-Lite spec, and the data each chart fills it with. The spec is one
// constant with named datasets and parameters, so it is compiled to Vega ahead of time and
// committed (scripts/compile-chart-specs.ts), parsed once, and every chart only feeds it data.
// Layers from back to front: the prior and the current period shaded, the Wilson band, the
// daily line (broken where a day had no runs), the alert thresholds as rules.
// Colours are from the Okabe–Ito palette, told apart with colour blindness, and the two
// thresholds differ in dash as well as in colour.

/** An alert threshold on the chart's metric, as a fraction. */
export interface ChartThreshold {
  level: "warn" | "critical";
  value: number;
}

export interface ChartDataInput {
  metric: ChartMetric;
  title: string;
  window: Period;
  periods: { current: Period; prior: Period };
  points: readonly ChartPoint[];
  thresholds: readonly ChartThreshold[];
}

/** What one chart feeds the spec: its named datasets and parameter values. */
export interface ChartData {
  datasets: Record<"rows" | "spans" | "rules", Record<string, unknown>[]>;
  signals: Record<"chartTitle" | "xStart" | "xEnd" | "yLow" | "yHigh", string | number>;
}

export const CHART_COLOURS = {
  line: "#0072B2",
  band: "#56B4E9",
  prior: "#000000",
  current: "#0072B2",
  warn: "#E69F00",
  critical: "#D55E00",
  text: "#1f2328",
  muted: "#57606a",
} as const;

const METRIC_NAME: Record<ChartMetric, string> = {
  flakyRate: "Flaky rate",
  runPassRate: "Run pass rate",
  skippedShare: "Skipped share",
  timedOutShare: "Timed-out share",
};

/** "Flaky rate", "Run pass rate". */
export function chartMetricName(metric: ChartMetric): string {
  return METRIC_NAME[metric];
}

/** An ISO date's start (UTC-anchored: the chart's days are calendar days, not instants). */
const dayStart = (date: string) => Date.parse(`${date}T00:00:00Z`);
const noon = (date: string) => Date.parse(`${date}T12:00:00Z`);

/**
 * The trend chart's Vega-Lite spec, `width × height` CSS pixels in all. `subtitle` says what
 * the shading and the band mean, in lines short enough for Vega's estimate of text width (it
 * has no canvas to measure with and guesses wide, and would narrow the plot to make room).
 */
export function trendChartSpec(size: {
  width: number;
  height: number;
  font: string;
  subtitle: readonly string[];
}): Record<string, unknown> & { width: number } {
  const x = { field: "t", type: "temporal" };
  const y = {
    field: "rate",
    type: "quantitative",
    scale: { domain: { expr: "[yLow, yHigh]" }, nice: false, clamp: true },
    axis: {
      title: null,
      format: ".0%",
      tickCount: 4,
      labelColor: CHART_COLOURS.muted,
      gridColor: "#e5e7eb",
    },
  };
  const colourField = (field: string) => ({ field, type: "nominal", scale: null, legend: null });
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v5.json",
    width: size.width,
    height: size.height,
    autosize: { type: "fit", contains: "padding" },
    padding: { left: 4, right: 8, top: 4, bottom: 4 },
    background: "#ffffff",
    params: ["chartTitle", "xStart", "xEnd", "yLow", "yHigh"].map((name) => ({
      name,
      value: name === "chartTitle" ? "" : 0,
    })),
    title: {
      text: { expr: "chartTitle" },
      anchor: "start",
      // Cut with "…" rather than let a long project name widen the chart ("fit" would then
      // narrow the plot to make room; the full title is in the alt text). The padding leaves
      // the title 348 px; a cut title that fills them exactly still nudged the plot narrower
      // on every layout, so it is cut 12 px short of them.
      limit: size.width - 24,
      fontSize: 13,
      fontWeight: "bold",
      color: CHART_COLOURS.text,
      subtitle: [...size.subtitle],
      subtitleColor: CHART_COLOURS.muted,
      subtitleFontSize: 10,
      offset: 6,
    },
    config: {
      // No ARIA attributes in the SVG: it is only ever rasterised, and each point's label
      // (a date and a rate, formatted) cost Vega a string per point on every layout. The
      // image's words are our own alt text (chart-alt-text.ts).
      aria: false,
      font: size.font,
      view: { stroke: null },
      axis: { labelFontSize: 11, domainColor: "#8c959f", tickColor: "#8c959f" },
    },
    layer: [
      {
        // The scale and axis are declared once, here; the other layers share them.
        data: { name: "spans" },
        mark: { type: "rect" },
        encoding: {
          x: {
            ...x,
            scale: { type: "utc", domain: { expr: "[xStart, xEnd]" } },
            axis: {
              title: null,
              format: "%b %-d",
              tickCount: 6,
              // Every other date is dropped where two would come closer than this: measured
              // in the font's own widths, "Oct 11Oct 18" would otherwise just fit.
              labelSeparation: 8,
              labelColor: CHART_COLOURS.muted,
              grid: false,
            },
          },
          x2: { field: "t2" },
          fill: colourField("fill"),
          // Fill opacity, not opacity: resvg draws an element with an opacity of its own on a
          // layer of its own and blends that in (docs/performance.md, the charts' seventh stop).
          fillOpacity: { field: "opacity", type: "quantitative", scale: null, legend: null },
        },
      },
      {
        data: { name: "rows" },
        mark: {
          type: "area",
          color: CHART_COLOURS.band,
          fillOpacity: 0.35,
          invalid: "break-paths-filter-domains",
        },
        encoding: { x, y: { ...y, field: "low" }, y2: { field: "high" } },
      },
      {
        data: { name: "rows" },
        mark: {
          type: "line",
          color: CHART_COLOURS.line,
          strokeWidth: 2,
          invalid: "break-paths-filter-domains",
          point: { filled: true, size: 14, color: CHART_COLOURS.line },
        },
        encoding: { x, y },
      },
      {
        data: { name: "rules" },
        mark: { type: "rule", strokeWidth: 1.5 },
        encoding: { y, color: colourField("colour"), strokeDash: colourField("dash") },
      },
      {
        data: { name: "rules" },
        mark: {
          type: "text",
          align: "left",
          baseline: "bottom",
          dy: -2,
          fontSize: 10,
          fontWeight: "bold",
        },
        encoding: { x: { value: 3 }, y, text: { field: "label" }, color: colourField("colour") },
      },
    ],
  };
}

/** The datasets and parameters one chart feeds the spec. */
export function trendChartData(input: ChartDataInput): ChartData {
  const { window, periods, points, thresholds } = input;
  const spans = [
    { period: periods.prior, fill: CHART_COLOURS.prior, opacity: 0.09 },
    { period: periods.current, fill: CHART_COLOURS.current, opacity: 0.12 },
  ].flatMap(({ period, fill, opacity }) => {
    const inside = clip(period, window);
    return inside
      ? [{ t: dayStart(inside.start), t2: dayStart(addDays(inside.end, 1)), fill, opacity }]
      : [];
  });
  const [yLow, yHigh] = yDomain(input.metric, points, thresholds);
  return {
    datasets: {
      rows: points.map((p) => ({ t: noon(p.date), rate: p.rate, low: p.low, high: p.high })),
      spans,
      rules: thresholds.map((th) => ({
        rate: th.value,
        label: `${th.level} ${formatPercent(th.value)}`,
        colour: CHART_COLOURS[th.level],
        dash: th.level === "warn" ? [5, 3] : [1, 0],
      })),
    },
    signals: {
      chartTitle: input.title,
      xStart: dayStart(window.start),
      xEnd: dayStart(addDays(window.end, 1)),
      yLow,
      yHigh,
    },
  };
}

/** The part of `period` inside `window`, or null when they do not meet. */
function clip(period: Period, window: Period): Period | null {
  const start = period.start > window.start ? period.start : window.start;
  const end = period.end < window.end ? period.end : window.end;
  return start > end ? null : { start, end };
}

/**
 * The rate axis: flaky rates from 0 to a little above the highest day or threshold (a 2% rate
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

function formatPercent(fraction: number): string {
  const pct = fraction * 100;
  return `${fixed(pct, Number.isInteger(pct) ? 0 : 1)}%`;
}
