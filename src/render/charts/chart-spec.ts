import type { ChartMetric, SubjectMetric } from "./chart-points.js";

// The charts as Vega-Lite specs: the trend chart of one rate (an alert fire's) and the subject
// chart of both rates, one panel above the other (a digest's, one image per team or project).
// Each is one constant with named datasets and parameters, so it is compiled to Vega ahead of
// time and committed (scripts/compile-chart-specs.ts), parsed once, and every chart only feeds
// it data (chart-data.ts). A panel's layers from back to front: the prior and the current
// period shaded and named, the Wilson band, the daily line (broken where a day had no runs),
// the alert thresholds as rules with their labels above them.
// Colours are from the Okabe–Ito palette, told apart with colour blindness, and the two
// thresholds differ in dash as well as in colour. The periods are shaded grey, so the band is
// the only light blue: it reads as the line's, not as a period's.

/** The compiled specs, by name: what a chart's data says it is drawn with. */
export type ChartSpecName = "trend" | "subject";

/** An alert threshold on the chart's metric, as a fraction (minutes for a duration). */
export interface ChartThreshold {
  level: "warn" | "critical";
  value: number;
}

/** What one chart feeds its spec: the spec's name, its named datasets and parameter values. */
export interface ChartData {
  spec: ChartSpecName;
  datasets: Record<string, Record<string, unknown>[]>;
  signals: Record<string, string | number | readonly (string | number)[]>;
}

export const CHART_COLOURS = {
  line: "#0072B2",
  band: "#56B4E9",
  prior: "#000000",
  current: "#000000",
  warn: "#E69F00",
  critical: "#D55E00",
  text: "#1f2328",
  muted: "#57606a",
  halo: "#ffffff",
} as const;

/** How strongly each shade is laid over the white: the band lighter than this period's grey. */
export const CHART_OPACITY = { prior: 0.05, current: 0.11, band: 0.25 } as const;

/** The subject chart's panels, top to bottom: each a metric and the suffix of its data's names. */
export const SUBJECT_PANELS: readonly { metric: SubjectMetric; suffix: string }[] = [
  { metric: "flakyRate", suffix: "0" },
  { metric: "runPassRate", suffix: "1" },
];

const METRIC_NAME: Record<ChartMetric, string> = {
  flakyRate: "Flaky rate",
  runPassRate: "Run pass rate",
  skippedShare: "Skipped share",
  timedOutShare: "Timed-out share",
  meanRunDuration: "Mean run duration",
};

/** "Flaky rate", "Run pass rate". */
export function chartMetricName(metric: ChartMetric): string {
  return METRIC_NAME[metric];
}

export interface ChartSpecSize {
  /** CSS pixels of the whole chart. */
  width: number;
  /** CSS pixels: the whole trend chart's, or each of the subject chart's panels'. */
  height: number;
  font: string;
  subtitle: readonly string[];
}

/** The signals every spec declares; a panel's own are suffixed (`yLow0`). */
const SHARED_SIGNALS = ["chartTitle", "xStart", "xEnd", "xTicks"];
/** `yUnit`: what follows each axis label ("" for a rate, whose format says %; " min"). */
const PANEL_SIGNALS = ["yLow", "yHigh", "yTicks", "yFormat", "yUnit"];

/** The trend chart of one rate, `width × height` CSS pixels in all. */
export function trendChartSpec(size: ChartSpecSize): Record<string, unknown> {
  return {
    ...topLevel(size, [""]),
    width: size.width,
    height: size.height,
    autosize: { type: "fit", contains: "padding" },
    layer: panelLayers("", { dates: true, spanNames: true }),
  };
}

/**
 * The subject chart: both rates, flaky above run pass, on one time axis, each panel `height`
 * CSS pixels. Concatenated views cannot "fit", so the panels are as wide as the chart less
 * room for the rate labels, and the painter scales the whole to the chart's width.
 */
export function subjectChartSpec(size: ChartSpecSize): Record<string, unknown> {
  return {
    ...topLevel(
      size,
      SUBJECT_PANELS.map((p) => p.suffix),
    ),
    autosize: { type: "pad" },
    spacing: 14,
    vconcat: SUBJECT_PANELS.map(({ metric, suffix }, index) => ({
      width: size.width - PANEL_LEFT_ROOM,
      height: size.height,
      title: {
        text: chartMetricName(metric),
        anchor: "start",
        fontSize: 11,
        fontWeight: "bold",
        color: CHART_COLOURS.text,
        offset: 4,
      },
      layer: panelLayers(suffix, {
        dates: index === SUBJECT_PANELS.length - 1,
        spanNames: index === 0,
      }),
    })),
  };
}

/** CSS pixels left of a subject chart's panels for the rate labels ("100.0%") and padding. */
const PANEL_LEFT_ROOM = 56;

function topLevel(size: ChartSpecSize, suffixes: readonly string[]): Record<string, unknown> {
  const names = [
    ...SHARED_SIGNALS,
    ...suffixes.flatMap((suffix) => PANEL_SIGNALS.map((name) => `${name}${suffix}`)),
  ];
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v5.json",
    padding: { left: 4, right: 10, top: 4, bottom: 4 },
    background: "#ffffff",
    params: names.map((name) => ({ name, value: initialValue(name) })),
    title: {
      text: { expr: "chartTitle" },
      anchor: "start",
      // Cut with "…" rather than let a long project name widen the chart ("fit" would then
      // narrow the plot to make room; the full title is in the alt text). The padding leaves
      // the title width − 14 px; a cut title that fills them exactly still nudged the plot
      // narrower on every layout, so it is cut 12 px short of them.
      limit: size.width - 26,
      fontSize: 14,
      fontWeight: "bold",
      color: CHART_COLOURS.text,
      subtitle: [...size.subtitle],
      subtitleColor: CHART_COLOURS.muted,
      subtitleFontSize: 11,
      offset: 8,
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
  };
}

function initialValue(name: string): unknown {
  if (name === "chartTitle") return "";
  if (name.startsWith("yFormat")) return ".0%";
  if (name.startsWith("yUnit")) return "";
  if (name.endsWith("Ticks") || /Ticks\d$/.test(name)) return [];
  return 0;
}

/** One panel's layers, its datasets and signals named with `suffix`. */
function panelLayers(
  suffix: string,
  show: { dates: boolean; spanNames: boolean },
): Record<string, unknown>[] {
  const x = { field: "t", type: "temporal" };
  const y = {
    field: "rate",
    type: "quantitative",
    scale: { domain: { expr: `[yLow${suffix}, yHigh${suffix}]` }, nice: false, clamp: true },
    axis: {
      title: null,
      // Round steps chosen with the range (chart-data.ts), with as many decimals as the step
      // needs, so no two labels read the same ("1%, 1%" at half-point steps).
      values: { expr: `yTicks${suffix}` },
      labelExpr: `format(datum.value, yFormat${suffix}) + yUnit${suffix}`,
      labelColor: CHART_COLOURS.muted,
      gridColor: "#e5e7eb",
    },
  };
  const colourField = (field: string) => ({ field, type: "nominal", scale: null, legend: null });
  const label = (data: string, mark: Record<string, unknown>, encoding: Record<string, unknown>) =>
    // Each label twice: a white halo first, so a band or line behind it never blurs it.
    [
      {
        data: { name: data },
        mark: {
          ...mark,
          color: CHART_COLOURS.halo,
          stroke: CHART_COLOURS.halo,
          strokeWidth: 3,
          strokeJoin: "round",
        },
        encoding: { ...encoding, color: undefined },
      },
      { data: { name: data }, mark, encoding },
    ];
  return [
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
            // At noon, where each day's point is: a label names the day its point is on.
            values: { expr: "xTicks" },
            labels: show.dates,
            ticks: show.dates,
            // Every other date is dropped where two would come closer than this.
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
      data: { name: `rows${suffix}` },
      mark: {
        type: "area",
        color: CHART_COLOURS.band,
        fillOpacity: CHART_OPACITY.band,
        invalid: "break-paths-filter-domains",
      },
      encoding: { x, y: { ...y, field: "low" }, y2: { field: "high" } },
    },
    {
      data: { name: `rows${suffix}` },
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
      data: { name: `rules${suffix}` },
      mark: { type: "rule", strokeWidth: 1.5 },
      encoding: { y, color: colourField("colour"), strokeDash: colourField("dash") },
    },
    ...label(
      `rules${suffix}`,
      {
        type: "text",
        align: "left",
        baseline: "bottom",
        dx: 3,
        dy: -3,
        fontSize: 10,
        fontWeight: "bold",
      },
      { x: { value: 0 }, y, text: { field: "label" }, color: colourField("colour") },
    ),
    ...(show.spanNames
      ? label(
          `spanNames${suffix}`,
          { type: "text", align: "right", baseline: "top", dx: -3, fontSize: 10 },
          {
            x: { field: "t", type: "temporal" },
            y,
            text: { field: "label" },
            color: { value: CHART_COLOURS.muted },
          },
        )
      : []),
  ];
}
