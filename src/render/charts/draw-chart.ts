import { readFileSync } from "node:fs";
import { setImmediate as turnOfTheLoop } from "node:timers/promises";
import type { Runtime, Spec, View } from "vega";
import { CHART_FONT } from "./chart-assets.js";
import type { ChartData, ChartSpecName } from "./chart-spec.js";
import { rasterInStripes } from "./raster.js";
import { textOutliner } from "./text-outlines.js";
import { fontWidthsOfFile, measureChartTextBy } from "./text-width.js";
import { vega } from "./vega.js";

// A chart drawn to PNG with no browser and no canvas (in the chart worker of the built package,
// or in the calling thread from the sources: src/chart-painter/trend-chart-painter.ts). Its
// Vega-Lite spec is compiled to Vega ahead of time and committed (scripts/compile-chart-specs.ts;
// a test fails while the file is stale), so Vega-Lite is never loaded at run time. A painter
// feeds one Vega view (renderer "none") each chart's data in turn and writes it as SVG, which
// resvg rasterises a stripe at a time (raster.ts; png.ts writes the PNG), its text outlined
// once per painter, not once per chart (text-outlines.ts). Text is set in the font bundled with the package and never in a
// system font (`loadSystemFonts: false`), so a chart looks the same on a laptop, in CI and in
// the container. See docs/decisions/0006-charts-vega-lite-resvg.md.

/** resvg's font options for an SVG with no text left to set. */
const NO_FONT = { loadSystemFonts: false } as const;

/** Layouts a chart may take to settle on its plot's width; one or two in practice. */
const MAX_LAYOUT_PASSES = 4;

export interface DrawOptions {
  /** CSS pixels of the chart's width (the spec's). */
  width: number;
  /** Device pixels per CSS pixel: 2 for the 2× screens most phones and laptops have. */
  scale: number;
  /**
   * Font files to set text in; the bundled font by default. Text is laid out by the bundled
   * font's widths whatever the files (Vega has one width function per thread: text-width.ts).
   */
  fontFiles?: readonly string[];
}

export interface DrawnChart {
  png: Buffer;
  /** Device pixels of the PNG. */
  width: number;
  height: number;
}

/** Draws charts of one compiled spec, one at a time. */
export interface ChartPainter {
  draw(data: ChartData): Promise<DrawnChart>;
}

/** A compiled Vega spec (the JSON of a file in assets/charts), parsed, ready to draw many charts from. */
function parseChart(spec: unknown): Runtime {
  return vega.parse(spec as Spec);
}

/** A compiled Vega spec read from its file (assets/charts), parsed. */
export function chartOfSpecFile(file: string): Runtime {
  return parseChart(JSON.parse(readFileSync(file, "utf8")));
}

/** What a painter calls while it draws, for its thread's memory (the chart worker's: chart-worker.ts). */
export interface PaintHooks {
  /** After each stripe of a chart is compressed, with nothing holding the stripe. */
  betweenStripes?: () => void;
}

/** A painter of the compiled specs in `files`, each read and parsed on its first chart. */
export function painterOfSpecFiles(
  files: Readonly<Record<ChartSpecName, string>>,
  options: DrawOptions,
  hooks: PaintHooks = {},
): ChartPainter {
  return chartPainter((spec) => chartOfSpecFile(files[spec]), options, hooks);
}

/**
 * Lays `view` out with `data`, until it settles: "fit" sizes the plot from the last layout's
 * bounds, and this chart's text may be wider or narrower than the last one's (measured in the
 * font's widths, a second pass is usual: the first leaves room for labels it drops).
 */
export async function layOutChart(view: View, data: ChartData): Promise<void> {
  for (const [name, values] of Object.entries(data.datasets)) view.data(name, values);
  for (const [name, value] of Object.entries(data.signals)) view.signal(name, value);
  for (let pass = 0; pass < MAX_LAYOUT_PASSES; pass++) {
    const width = view.width();
    view.resize();
    await view.runAsync();
    if (view.width() === width) break;
  }
}

/**
 * A painter with one Vega view a spec for all its charts: building a view costs several times
 * what re-running it on new data does, and every dataset and parameter a chart has is replaced
 * before each draw, so nothing of the previous chart is left in the next. Draws queue, since
 * a view holds one chart's data at a time. `runtimeOf` parses a spec, once, on its first chart.
 */
export function chartPainter(
  runtimeOf: (spec: ChartSpecName) => Runtime,
  options: DrawOptions,
  hooks: PaintHooks = {},
): ChartPainter {
  measureChartTextBy(fontWidthsOfFile(CHART_FONT.widths));
  const views = new Map<ChartSpecName, View>();
  const viewOf = (spec: ChartSpecName): View => {
    let view = views.get(spec);
    if (!view) {
      view = new vega.View(runtimeOf(spec), { renderer: "none" });
      views.set(spec, view);
    }
    return view;
  };
  const font = {
    loadSystemFonts: false,
    fontFiles: [...(options.fontFiles ?? [CHART_FONT.file])],
    defaultFontFamily: CHART_FONT.family,
    sansSerifFamily: CHART_FONT.family,
  };
  const texts = textOutliner(font);
  const deviceWidth = Math.round(options.width * options.scale);

  async function svgOf(data: ChartData): Promise<string> {
    const view = viewOf(data.spec);
    await layOutChart(view, data);
    return view.toSVG();
  }

  async function paint(data: ChartData): Promise<DrawnChart> {
    const svg = texts.outline(await svgOf(data));
    // resvg's native memory (each stripe's pixmap and the last chart's tree) is freed by
    // finalizers that Node runs from the event loop once V8 has collected their objects, not
    // during the collection: a turn of the loop before each chart lets the last one's go.
    await turnOfTheLoop();
    // With every text outlined, resvg needs no font: none is loaded for the chart.
    return rasterInStripes(svg, {
      width: deviceWidth,
      background: "#ffffff",
      font: svg.includes("<text") ? font : NO_FONT,
      betweenStripes: hooks.betweenStripes,
    });
  }

  let queue: Promise<unknown> = Promise.resolve();
  return {
    draw(data) {
      const drawn = queue.then(() => paint(data));
      queue = drawn.catch(() => undefined);
      return drawn;
    },
  };
}
