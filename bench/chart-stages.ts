import { Resvg } from "@resvg/resvg-js";
import { CHART_FONT, CHART_SPECS } from "../src/render/charts/chart-assets.js";
import { chartOfSpecFile } from "../src/render/charts/draw-chart.js";
import { encodePng } from "../src/render/charts/png.js";
import { textOutliner } from "../src/render/charts/text-outlines.js";
import { fontWidthsOfFile, measureChartTextBy } from "../src/render/charts/text-width.js";
import { CHART_SIZE, trendChartDataOf } from "../src/render/charts/trend-chart.js";
import { vega } from "../src/render/charts/vega.js";
import { chartInput } from "../test/render/charts/chart-fixture.js";

// Where a chart's time goes, stage by stage: CPU time of N charts through each stage, divided
// by N, for a few rounds (the first is the cold one). As the painter draws: each SVG's text
// outlined by text-outlines.ts (the same chart each time, so after the first round every text
// is remembered) before resvg parses it. FONT=<ttf> and SCALE=<n> try another font file or
// pixel ratio. `npx tsx bench/chart-stages.ts`.

const N = 12;
const ROUNDS = 4;
const fontFile = process.env.FONT ?? CHART_FONT.file;
const scale = Number(process.env.SCALE ?? CHART_SIZE.scale);

function cpuMs(): number {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
}

async function stage<T>(label: string, run: () => T | Promise<T>): Promise<T> {
  const started = cpuMs();
  const result = await run();
  process.stdout.write(`  ${label.padEnd(28)} ${((cpuMs() - started) / N).toFixed(1)} ms\n`);
  return result;
}

const compileStarted = cpuMs();
const runtime = chartOfSpecFile(CHART_SPECS.trend);
process.stdout.write(
  `parse the compiled spec, once: ${(cpuMs() - compileStarted).toFixed(0)} ms\n`,
);
const data = trendChartDataOf(
  chartInput("flakyRate", { thresholds: [{ level: "warn", value: 0.05 }] }),
);
// Text laid out in the font's widths, as the painter does.
measureChartTextBy(fontWidthsOfFile(CHART_FONT.widths));
const view = new vega.View(runtime, { renderer: "none" });
const options = {
  fitTo: { mode: "width", value: Math.round(CHART_SIZE.width * scale) } as const,
  background: "#ffffff",
  font: {
    loadSystemFonts: false,
    fontFiles: [fontFile],
    defaultFontFamily: CHART_FONT.family,
    sansSerifFamily: CHART_FONT.family,
  },
};
const texts = textOutliner(options.font);
for (let round = 0; round < ROUNDS; round++) {
  process.stdout.write(`round ${round + 1}, CPU per chart:\n`);
  await stage("vega: data, layout", async () => {
    for (let i = 0; i < N; i++) {
      for (const [name, values] of Object.entries(data.datasets)) view.data(name, values);
      for (const [name, value] of Object.entries(data.signals)) view.signal(name, value);
      view.resize();
      await view.runAsync();
    }
  });
  const svgs = await stage("vega: SVG text", async () => {
    const out: string[] = [];
    for (let i = 0; i < N; i++) out.push(await view.toSVG());
    return out;
  });
  const outlined = await stage("text outlined", () => svgs.map((svg) => texts.outline(svg)));
  const parsed = await stage("resvg: font, parse", () =>
    outlined.map((svg) => new Resvg(svg, options)),
  );
  const images = await stage("resvg: rasterise", () => parsed.map((p) => p.render()));
  await stage("PNG encode: png.ts (drawn)", () => images.map((image) => encodePng(image)));
  await stage("PNG encode: resvg's asPng", () => images.map((image) => image.asPng()));
}
