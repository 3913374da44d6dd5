import { describe, expect, it } from "vitest";
import { CHART_FONT, CHART_SPECS } from "../../../src/render/charts/chart-assets.js";
import type { ChartData } from "../../../src/render/charts/chart-spec.js";
import { chartThresholds } from "../../../src/render/charts/chart-thresholds.js";
import { chartOfSpecFile, layOutChart } from "../../../src/render/charts/draw-chart.js";
import { fontWidthsOfFile, measureChartTextBy } from "../../../src/render/charts/text-width.js";
import {
  subjectChartDataOf,
  type TrendChartInput,
  trendChartDataOf,
} from "../../../src/render/charts/trend-chart.js";
import { vega } from "../../../src/render/charts/vega.js";
import { chartDays, chartInput } from "./chart-fixture.js";

// What a chart says at a glance, read from Vega's laid-out scenegraph rather than its pixels:
// where each label, point and line sits, and what colour each shade is.

interface SceneItem {
  /** The subject chart's panel the item is in ("concat_0_group"); "" in a trend chart. */
  panel: string;
  role: string;
  name: string;
  type: string;
  x: number;
  y: number;
  /** Absolute bounds. */
  y1: number;
  y2: number;
  text?: string;
  fill?: string;
  fillOpacity?: number;
}

/** Every item of the scene with its absolute position, groups' offsets added. */
function flatten(
  mark: Record<string, unknown>,
  dx = 0,
  dy = 0,
  out: SceneItem[] = [],
  panel = "",
): SceneItem[] {
  const name = String(mark.name ?? "");
  const inPanel = /^concat_\d+_group$/.test(name) ? name : panel;
  const items = (mark.items ?? []) as Record<string, unknown>[];
  for (const item of items) {
    const x = dx + Number(item.x ?? 0);
    const y = dy + Number(item.y ?? 0);
    const bounds = item.bounds as { y1: number; y2: number } | undefined;
    out.push({
      panel: inPanel,
      role: String(mark.role ?? ""),
      name: String(mark.name ?? ""),
      type: String(mark.marktype ?? ""),
      x,
      y,
      y1: dy + (bounds?.y1 ?? 0),
      y2: dy + (bounds?.y2 ?? 0),
      text: item.text === undefined ? undefined : String(item.text),
      fill: item.fill === undefined ? undefined : String(item.fill),
      fillOpacity: item.fillOpacity === undefined ? undefined : Number(item.fillOpacity),
    });
    if (mark.marktype === "group") {
      for (const child of (item.items ?? []) as Record<string, unknown>[])
        flatten(child, x, y, out, inPanel);
    }
  }
  return out;
}

/** A chart's data laid out as the painter lays it out, as a flat list of items. */
async function sceneOf(data: ChartData): Promise<SceneItem[]> {
  measureChartTextBy(fontWidthsOfFile(CHART_FONT.widths));
  const view = new vega.View(chartOfSpecFile(CHART_SPECS[data.spec]), { renderer: "none" });
  await layOutChart(view, data);
  const scene = view.scenegraph() as unknown as { root: Record<string, unknown> };
  return flatten(scene.root);
}

/**
 * A chart of `input` as each spec draws it: the trend chart of its metric (an alert fire's),
 * or the subject chart of both rates (a digest's), the metric's panel on top or below.
 */
function scene(spec: ChartData["spec"], input: TrendChartInput): Promise<SceneItem[]> {
  if (spec === "trend") return sceneOf(trendChartDataOf(input));
  const other = input.metric === "flakyRate" ? "runPassRate" : "flakyRate";
  return sceneOf(
    subjectChartDataOf({
      ...input,
      days: input.days,
      thresholds: { [input.metric]: input.thresholds, [other]: [] } as Record<
        TrendChartInput["metric"],
        TrendChartInput["thresholds"]
      >,
    }),
  );
}

/** The items of the flaky rate's panel: the whole trend chart, or the subject chart's top panel. */
const flakyPanel = (items: SceneItem[]) =>
  items.filter((i) => i.panel === "" || i.panel === "concat_0_group");

/** The y axis's labels, top to bottom, as shown (Vega hides overlapping ones at opacity 0). */
const yLabels = (items: SceneItem[]) =>
  items
    .filter((i) => i.role === "axis-label" && i.text?.endsWith("%"))
    .sort((a, b) => a.y - b.y)
    .map((i) => i.text);

/** A colour with its opacity laid on white, as "r,g,b". */
function onWhite(fill: string, opacity: number): string {
  const hex = /^#([0-9a-f]{6})$/i.exec(fill)?.[1];
  if (!hex) throw new Error(`not a #rrggbb colour: ${fill}`);
  const channels = [0, 2, 4].map((at) => Number.parseInt(hex.slice(at, at + 2), 16));
  return channels.map((c) => Math.round(255 - (255 - c) * opacity)).join(",");
}

describe.each(["trend", "subject"] as const)("a %s chart read at a glance", (spec) => {
  it("labels a small range's ticks at round steps, every label different", async () => {
    // A flaky rate under 2.5% all along: the axis ends at 2% or 2.5%.
    const quiet = chartDays(
      Object.fromEntries(
        chartDays().map((d) => [d.date, { flaky: d.figures.tests === 0 ? null : 30, tests: 2000 }]),
      ),
    );
    const labels = yLabels(
      flakyPanel(await scene(spec, chartInput("flakyRate", { days: quiet, thresholds: [] }))),
    );
    expect(labels.length).toBeGreaterThanOrEqual(3);
    expect(new Set(labels).size).toBe(labels.length);
    expect(labels.at(-1)).toBe("0.0%");
    expect(labels).toContain("1.0%");
  });

  it("shades the 95% band in a lighter tone of its own, not the colour of either period", async () => {
    const items = flakyPanel(await scene(spec, chartInput("flakyRate")));
    const band = items.find((i) => i.type === "area");
    const spans = items.filter(
      (i) =>
        i.type === "rect" && i.role === "mark" && i.fillOpacity !== undefined && i.fillOpacity < 1,
    );
    expect(band?.fill).toBeDefined();
    expect(spans).toHaveLength(2);
    const bandTone = onWhite(band?.fill ?? "", band?.fillOpacity ?? 1);
    for (const span of spans) {
      expect(span.fill).not.toBe(band?.fill);
      expect(bandTone).not.toBe(onWhite(span.fill ?? "", span.fillOpacity ?? 1));
    }
    // Lighter than this period's shade, where the two meet most often.
    const lightness = (tone: string) => tone.split(",").reduce((sum, c) => sum + Number(c), 0);
    const current = spans.reduce((a, b) => ((a.fillOpacity ?? 0) > (b.fillOpacity ?? 0) ? a : b));
    expect(lightness(bandTone)).toBeGreaterThan(
      lightness(onWhite(current.fill ?? "", current.fillOpacity ?? 1)),
    );
  });

  it("puts each threshold's label above its line", async () => {
    const items = await scene(spec, chartInput("flakyRate"));
    const rules = items.filter((i) => i.type === "rule" && i.role === "mark");
    expect(rules).toHaveLength(2);
    for (const label of ["warn 5%", "critical 10%"]) {
      const text = items.find((i) => i.type === "text" && i.text === label && i.fill !== "#ffffff");
      expect(text, label).toBeDefined();
      const rule = rules.find((r) => Math.abs(r.y - (text?.y ?? 0)) < 20);
      expect(rule, label).toBeDefined();
      expect(text?.y2 ?? 0).toBeLessThanOrEqual(rule?.y ?? 0);
    }
  });

  it("sets each day's point right above its date label", async () => {
    const items = await scene(spec, chartInput("flakyRate"));
    const dates = items.filter(
      (i) => i.role === "axis-label" && /^[A-Z][a-z]{2} \d+$/.test(i.text ?? ""),
    );
    const points = items.filter((i) => i.type === "symbol" && i.role === "mark");
    expect(dates.length).toBeGreaterThanOrEqual(4);
    // Nov 9, the current period's Monday, has runs; its point and its label share an x.
    const nov9 = dates.find((d) => d.text === "Nov 9");
    expect(nov9).toBeDefined();
    const nearest = points.reduce((a, b) =>
      Math.abs(a.x - (nov9?.x ?? 0)) < Math.abs(b.x - (nov9?.x ?? 0)) ? a : b,
    );
    // Within Vega's half-pixel nudge of the axis (for crisp ticks); half a day is ~5 px.
    expect(Math.abs(nearest.x - (nov9?.x ?? Number.NaN))).toBeLessThan(1);
  });

  it("names the shaded spans on the chart: this week and the prior week", async () => {
    const items = await scene(
      spec,
      chartInput("flakyRate", { periodNames: { current: "this week", prior: "prior week" } }),
    );
    const texts = items.filter((i) => i.type === "text").map((i) => i.text);
    expect(texts).toContain("this week");
    expect(texts).toContain("prior week");
  });
});

describe("a mean run duration chart (issue 38: charted like the rates)", () => {
  /** The fixture's days with runs lasting 8 to 12 minutes on average. */
  const durations = chartDays().map((day, i) => ({
    date: day.date,
    figures: {
      ...day.figures,
      meanRunDurationMs: day.figures.runs > 0 ? (8 + (i % 5)) * 60_000 : null,
    },
  }));
  const input = chartInput("meanRunDuration", {
    days: durations,
    thresholds: chartThresholds("meanRunDuration", [
      { metric: "mean_run_duration", warnAt: 15, criticalAt: 20 },
    ]),
  });

  it("labels its axis in minutes, from 0", async () => {
    const labels = (await scene("trend", input))
      .filter((i) => i.role === "axis-label" && i.text?.endsWith(" min"))
      .sort((a, b) => a.y - b.y)
      .map((i) => i.text);
    expect(labels).toEqual(["25 min", "20 min", "15 min", "10 min", "5 min", "0 min"]);
  });

  it("draws each threshold at its minutes, labelled in minutes", async () => {
    const items = await scene("trend", input);
    const rules = items.filter((i) => i.type === "rule" && i.role === "mark");
    expect(rules).toHaveLength(2);
    for (const [label, tick] of [
      ["warn 15 min", "15 min"],
      ["critical 20 min", "20 min"],
    ] as const) {
      const text = items.find((i) => i.type === "text" && i.text === label && i.fill !== "#ffffff");
      expect(text, label).toBeDefined();
      const axis = items.find((i) => i.role === "axis-label" && i.text === tick);
      // The rule sits where the axis says its minutes are (a label is centred on its tick).
      const rule = rules.find((r) => Math.abs(r.y - (axis?.y ?? Number.NaN)) < 1.5);
      expect(rule, label).toBeDefined();
    }
  });
});
