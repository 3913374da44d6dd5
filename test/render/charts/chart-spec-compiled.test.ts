import { readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { compiledChartText } from "../../../scripts/compile-chart-specs.js";
import { CHART_SPECS } from "../../../src/render/charts/chart-assets.js";
import {
  subjectChartLiteSpec,
  trendChartLiteSpec,
} from "../../../src/render/charts/trend-chart.js";

// The reporter parses the charts' Vega compiled at build time and never loads Vega-Lite;
// the file must be what the Vega-Lite spec in src/ compiles to now.

/** Every mark of a compiled spec, the marks inside groups included. */
function marksOf(spec: { marks?: unknown[] }): Record<string, unknown>[] {
  return (spec.marks ?? []).flatMap((mark) => {
    const m = mark as Record<string, unknown> & { marks?: unknown[] };
    return [m, ...marksOf(m)];
  });
}

const SPECS = [
  { name: "trend", file: CHART_SPECS.trend, lite: trendChartLiteSpec, panels: 1 },
  { name: "subject", file: CHART_SPECS.subject, lite: subjectChartLiteSpec, panels: 2 },
] as const;

describe.each(SPECS)("the compiled $name chart", ({ file, lite, panels }) => {
  it("is what the Vega-Lite spec compiles to (else: npx tsx scripts/compile-chart-specs.ts)", () => {
    expect(readFileSync(file, "utf8")).toBe(compiledChartText(lite()));
  });

  it("shades with fill opacity: resvg draws a mark with an opacity of its own on a layer of its own", () => {
    const marks = marksOf(JSON.parse(readFileSync(file, "utf8")));
    const encodings = marks.flatMap((mark) =>
      Object.values((mark.encode ?? {}) as Record<string, Record<string, unknown>>),
    );
    expect(encodings.length).toBeGreaterThan(5);
    expect(encodings.filter((channels) => "fillOpacity" in channels)).toHaveLength(2 * panels);
    // An opacity of 1 is no layer (Vega-Lite gives the line's points one).
    const layered = encodings.filter(
      (channels) => "opacity" in channels && !isDeepStrictEqual(channels.opacity, { value: 1 }),
    );
    expect(layered).toEqual([]);
  });
});
