import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { compiledChartText } from "../../../scripts/compile-chart-specs.js";
import { TREND_CHART_VEGA } from "../../../src/render/charts/chart-assets.js";
import { trendChartLiteSpec } from "../../../src/render/charts/trend-chart.js";

// The reporter parses the trend chart's Vega compiled at build time and never loads Vega-Lite;
// the file must be what the Vega-Lite spec in src/ compiles to now.

describe("the compiled trend chart", () => {
  it("is what the Vega-Lite spec compiles to (else: npx tsx scripts/compile-chart-specs.ts)", () => {
    expect(readFileSync(TREND_CHART_VEGA, "utf8")).toBe(compiledChartText(trendChartLiteSpec()));
  });
});
