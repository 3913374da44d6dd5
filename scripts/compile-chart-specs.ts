import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { LoggerInterface } from "vega";
import { compile, type TopLevelSpec } from "vega-lite";
import { TREND_CHART_VEGA } from "../src/render/charts/chart-assets.js";
import { trendChartLiteSpec } from "../src/render/charts/trend-chart.js";

// `npx tsx scripts/compile-chart-specs.ts`: compiles the trend chart's Vega-Lite spec
// (src/render/charts/chart-spec.ts) to the Vega the reporter parses at run time,
// assets/charts/trend-chart.vg.json, so Vega-Lite (~14 MB and ~300 ms of CPU to load) is never
// loaded by the reporter itself. Run it after changing the spec; a test fails while it is stale.

/**
 * Vega-Lite's warnings would go to the console; the one our spec raises (a domain given as an
 * expression "conflicts" with the data's) is harmless.
 */
const QUIET = {
  level: () => QUIET,
  error: () => QUIET,
  warn: () => QUIET,
  info: () => QUIET,
  debug: () => QUIET,
} as unknown as LoggerInterface;

/** The Vega a Vega-Lite spec compiles to, as the file holds it. */
export function compiledChartText(spec: Record<string, unknown>): string {
  return `${JSON.stringify(compile(spec as unknown as TopLevelSpec, { logger: QUIET }).spec, null, 2)}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  mkdirSync(dirname(TREND_CHART_VEGA), { recursive: true });
  writeFileSync(TREND_CHART_VEGA, compiledChartText(trendChartLiteSpec()));
  process.stdout.write(`wrote ${TREND_CHART_VEGA}\n`);
}
