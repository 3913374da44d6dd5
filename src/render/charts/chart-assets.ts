import { fileURLToPath } from "node:url";
import type { ChartSpecName } from "./chart-spec.js";

// The files a chart is drawn with, shipped in the package's assets/: where they are, not their
// contents (whoever draws reads them, once).

/**
 * The font bundled in assets/fonts: DejaVu Sans cut down to the scripts names are written in
 * (licence beside it; `scripts/subset-chart-font.ts` makes it). resvg reads the whole file for
 * every image, so its size is paid per chart.
 */
export const CHART_FONT = {
  family: "DejaVu Sans",
  file: fileURLToPath(new URL("../../../assets/fonts/DejaVuSans-charts.ttf", import.meta.url)),
  /** Each character's advance width in it (`scripts/chart-font-widths.ts` writes them). */
  widths: fileURLToPath(
    new URL("../../../assets/fonts/DejaVuSans-charts.widths.json", import.meta.url),
  ),
};

/**
 * Each chart's Vega, compiled by scripts/compile-chart-specs.ts: the trend chart of one rate
 * (`trendChartLiteSpec()`, an alert fire's) and the subject chart of both (`subjectChartLiteSpec()`,
 * a digest's).
 */
export const CHART_SPECS: Readonly<Record<ChartSpecName, string>> = {
  trend: fileURLToPath(new URL("../../../assets/charts/trend-chart.vg.json", import.meta.url)),
  subject: fileURLToPath(new URL("../../../assets/charts/subject-chart.vg.json", import.meta.url)),
};
