import { fileURLToPath } from "node:url";
import { Resvg } from "@resvg/resvg-js";
import { type LoggerInterface, parse, type Runtime, View } from "vega";
import { compile, type TopLevelSpec } from "vega-lite";
import type { ChartData } from "./chart-spec.js";

// A Vega-Lite spec drawn to PNG in-process, with no browser and no canvas: the spec is
// compiled and parsed once, then each chart is a Vega view (renderer "none") fed its data,
// written as SVG, which resvg rasterises. Text is set in the font bundled with the package and
// never in a system font (`loadSystemFonts: false`), so a chart looks the same on a laptop, in
// CI and in the container. See docs/decisions/0006-charts-vega-lite-resvg.md.

/** The font bundled in assets/fonts (DejaVu Sans; licence beside it). */
export const CHART_FONT = {
  family: "DejaVu Sans",
  file: fileURLToPath(new URL("../../../assets/fonts/DejaVuSans.ttf", import.meta.url)),
};

export interface DrawOptions {
  /** CSS pixels of the chart's width (the spec's). */
  width: number;
  /** Device pixels per CSS pixel: 2 for the 2× screens most phones and laptops have. */
  scale: number;
  /** Font files to set text in; the bundled font by default. */
  fontFiles?: readonly string[];
}

export interface DrawnChart {
  png: Buffer;
  /** Device pixels of the PNG. */
  width: number;
  height: number;
}

/**
 * Vega-Lite's warnings would go to the console; the one our spec raises (a domain given as an
 * expression "conflicts" with the data's) is harmless, and a real problem shows in the picture
 * the golden tests compare.
 */
const QUIET = {
  level: () => QUIET,
  error: () => QUIET,
  warn: () => QUIET,
  info: () => QUIET,
  debug: () => QUIET,
} as unknown as LoggerInterface;

/** A Vega-Lite spec compiled and parsed, ready to draw many charts from. */
export function compileChart(spec: Record<string, unknown>): Runtime {
  return parse(compile(spec as unknown as TopLevelSpec, { logger: QUIET }).spec);
}

/** The SVG of one chart: the compiled spec fed `data`, laid out without a browser. */
export async function chartSvg(runtime: Runtime, data: ChartData): Promise<string> {
  const view = new View(runtime, { renderer: "none" });
  try {
    for (const [name, values] of Object.entries(data.datasets)) view.data(name, values);
    for (const [name, value] of Object.entries(data.signals)) view.signal(name, value);
    await view.runAsync();
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/** One chart as a PNG of `width × scale` device pixels. */
export async function drawChart(
  runtime: Runtime,
  data: ChartData,
  options: DrawOptions,
): Promise<DrawnChart> {
  const svg = await chartSvg(runtime, data);
  const image = new Resvg(svg, {
    fitTo: { mode: "width", value: Math.round(options.width * options.scale) },
    background: "#ffffff",
    font: {
      loadSystemFonts: false,
      fontFiles: [...(options.fontFiles ?? [CHART_FONT.file])],
      defaultFontFamily: CHART_FONT.family,
      sansSerifFamily: CHART_FONT.family,
    },
  }).render();
  return { png: image.asPng(), width: image.width, height: image.height };
}
