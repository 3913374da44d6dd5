import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { LoggerInterface } from "vega";
import { compile, type TopLevelSpec } from "vega-lite";
import { CHART_SPECS } from "../src/render/charts/chart-assets.js";
import { subjectChartLiteSpec, trendChartLiteSpec } from "../src/render/charts/trend-chart.js";

// `npx tsx scripts/compile-chart-specs.ts`: compiles the charts' Vega-Lite specs
// (src/render/charts/chart-spec.ts) to the Vega the reporter parses at run time,
// assets/charts/*.vg.json, so Vega-Lite (~14 MB and ~300 ms of CPU to load) is never
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
  for (const [file, spec] of [
    [CHART_SPECS.trend, trendChartLiteSpec()],
    [CHART_SPECS.subject, subjectChartLiteSpec()],
  ] as const) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, compiledChartText(spec));
    process.stdout.write(`wrote ${file}\n`);
  }
}
