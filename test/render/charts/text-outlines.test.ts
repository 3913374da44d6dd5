import { Resvg } from "@resvg/resvg-js";
import { describe, expect, it } from "vitest";
import { CHART_FONT, CHART_SPECS } from "../../../src/render/charts/chart-assets.js";
import { chartOfSpecFile } from "../../../src/render/charts/draw-chart.js";
import { textOutliner } from "../../../src/render/charts/text-outlines.js";
import { fontWidthsOfFile, measureChartTextBy } from "../../../src/render/charts/text-width.js";
import { trendChartDataOf } from "../../../src/render/charts/trend-chart.js";
import { vega } from "../../../src/render/charts/vega.js";
import { chartInput } from "./chart-fixture.js";
import { countColour, differingPixels, type Pixels } from "./png-pixels.js";

// The painter hands resvg a chart's SVG with its text already outlined (text-outlines.ts):
// the pixels of resvg setting the text itself (but for anti-aliasing at fractional positions),
// each text outlined once while it is kept.

const FONT = {
  loadSystemFonts: false,
  fontFiles: [CHART_FONT.file],
  defaultFontFamily: CHART_FONT.family,
  sansSerifFamily: CHART_FONT.family,
};

/** The SVG Vega writes for a trend chart, laid out as the painter lays it out (draw-chart.ts). */
async function trendChartSvg(input: Parameters<typeof chartInput>): Promise<string> {
  measureChartTextBy(fontWidthsOfFile(CHART_FONT.widths));
  const view = new vega.View(chartOfSpecFile(CHART_SPECS.trend), { renderer: "none" });
  const data = trendChartDataOf(chartInput(...input));
  for (const [name, values] of Object.entries(data.datasets)) view.data(name, values);
  for (const [name, value] of Object.entries(data.signals)) view.signal(name, value);
  for (let pass = 0; pass < 3; pass++) {
    view.resize();
    await view.runAsync();
  }
  return view.toSVG();
}

function draw(svg: string): Pixels {
  const image = new Resvg(svg, {
    fitTo: { mode: "zoom", value: 2 },
    background: "#ffffff",
    font: FONT,
  }).render();
  return { width: image.width, height: image.height, rgba: Buffer.from(image.pixels) };
}

/** A label as Vega writes one: styled on itself, placed by a transform. */
function label(text: string, x: number, y: number, extra = ""): string {
  return `<text text-anchor="end" transform="translate(${x},${y})" font-family="${CHART_FONT.family}" font-size="11px" fill="#57606a"${extra}>${text}</text>`;
}

/** An SVG laid out as Vega's are: a frame group that sets `fill="none"` around every mark. */
function chartSvg(body: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="360" height="120" viewBox="0 0 360 120"><g fill="none" transform="translate(36,10)">${body}</g></svg>`;
}

const TITLE = `<text text-anchor="start" transform="translate(0,10)" font-family="${CHART_FONT.family}" font-size="13px" font-weight="bold" fill="#1f2328">Flaky rate · Zürich Ærø (team)</text>`;
const SUBTITLE = `<text text-anchor="start" transform="translate(0,24)" font-family="${CHART_FONT.family}" font-size="10px" fill="#57606a"><tspan x="0" dy="0">grey: prior period · blue: this period</tspan><tspan x="0" dy="12">band: 95% interval of each day</tspan></text>`;

describe("outlining a chart's text before resvg draws it", () => {
  it("draws the same pixels as resvg setting the text, and leaves no text to set", () => {
    const svg = chartSvg(
      `${TITLE}${SUBTITLE}${label("0%", -7, 100)}${label("12.5%", -7, 70)}<g transform="translate(0.5,0.5)">${label("Sep 27", 120, 110, ' opacity="1"')}</g>`,
    );
    const outlined = textOutliner(FONT).outline(svg);
    expect(outlined).not.toContain("<text");
    const theirs = draw(svg);
    expect(countColour(theirs, "#1f2328")).toBeGreaterThan(500);
    expect(differingPixels(draw(outlined), theirs).count).toBe(0);
  });

  it("draws a trend chart as resvg draws it, axis labels, title and threshold included", async () => {
    const svg = await trendChartSvg([
      "flakyRate",
      { subject: "Zürich & <Ærø> $1 “nightly”", thresholds: [{ level: "warn", value: 0.05 }] },
    ]);
    expect(svg).toContain('stroke="#ffffff"');
    const outlined = textOutliner(FONT).outline(svg);
    // The labels' white halos too: every text is outlined, stroke and all.
    expect(outlined).not.toContain("<text");
    const theirs = draw(svg);
    const ours = draw(outlined);
    // Only anti-aliasing differs, in a few pixels: a label or halo left out would be hundreds.
    expect(differingPixels(ours, theirs, 12).count).toBeLessThan(10);
    expect(differingPixels(ours, theirs, 0).count).toBeLessThan(40);
  });

  it("drops the labels Vega hides at opacity 0, which draw nothing", () => {
    const svg = chartSvg(`${label("Oct 4", 80, 100, ' opacity="0"')}${label("Oct 11", 160, 100)}`);
    const texts = textOutliner(FONT);
    const outlined = texts.outline(svg);
    expect(texts.outlined).toBe(1);
    expect(outlined).not.toContain("Oct 4");
    expect(differingPixels(draw(outlined), draw(svg)).count).toBe(0);
  });

  const F = CHART_FONT.family;
  it.each([
    {
      what: "takes its colour and size from the groups around it",
      svg: chartSvg(
        `<g fill="#D55E00" font-size="20px"><text transform="translate(10,40)" font-family="${F}">warn 5%</text></g>`,
      ),
      text: "warn 5%",
      colour: "#D55E00",
    },
    {
      what: "is coloured by currentColor, set around it",
      svg: chartSvg(
        `<g color="#D55E00"><text transform="translate(10,40)" font-family="${F}" font-size="20px" fill="currentColor">warn 5%</text></g>`,
      ),
      text: "warn 5%",
      colour: "#D55E00",
    },
    {
      what: "is stroked, its corners set around it",
      svg: chartSvg(
        `<g stroke-miterlimit="1"><text transform="translate(10,80)" font-family="${F}" font-size="20px" fill="#ffffff" stroke="#0072B2" stroke-width="3">Nov 8</text></g>`,
      ),
      text: "Nov 8",
      colour: "#0072B2",
    },
    {
      what: "fills with a gradient defined elsewhere in its SVG",
      svg: `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="60"><defs><linearGradient id="g"><stop offset="0" stop-color="#0072B2"/><stop offset="1" stop-color="#0072B2"/></linearGradient></defs><text transform="translate(10,40)" font-family="${F}" font-size="24px" fill="url(#g)">Sep 27</text></svg>`,
      text: "Sep 27",
      colour: "#0072B2",
    },
  ])("leaves to resvg a text that $what", ({ svg, text, colour }) => {
    const outlined = textOutliner(FONT).outline(svg);
    expect(outlined).toContain(`>${text}</text>`);
    const drawn = draw(outlined);
    expect(countColour(drawn, colour)).toBeGreaterThan(200);
    expect(differingPixels(drawn, draw(svg)).count).toBe(0);
  });

  it("outlines each text once, wherever later charts place it", () => {
    const texts = textOutliner(FONT);
    texts.outline(chartSvg(`${label("0%", -7, 100)}${label("5%", -7, 60)}${TITLE}`));
    expect(texts.outlined).toBe(3);
    const moved = chartSvg(`${label("0%", -7, 90)}${label("5%", -7, 40)}${label("10%", -7, 10)}`);
    const outlined = texts.outline(moved);
    expect(texts.outlined).toBe(4);
    expect(differingPixels(draw(outlined), draw(moved)).count).toBe(0);
  });

  it("keeps the labels every chart uses and lets titles seen once go, within what it keeps", () => {
    const budget = 60_000;
    const texts = textOutliner(FONT, budget);
    let most = 0;
    for (let chart = 0; chart < 40; chart++) {
      const title = label(`Flaky rate · Project ${chart} with a rather long name`, 0, 10);
      texts.outline(chartSvg(`${title}${label("0%", -7, 100)}${label("Sep 27", 120, 110)}`));
      most = Math.max(most, texts.keptChars);
    }
    expect(most).toBeGreaterThan(budget / 2);
    expect(most).toBeLessThanOrEqual(budget);
    // 40 titles, and the two labels once: those were kept throughout.
    expect(texts.outlined).toBe(42);
    texts.outline(chartSvg(`${label("0%", -7, 50)}${label("Sep 27", 200, 110)}`));
    expect(texts.outlined).toBe(42);
  });
});
