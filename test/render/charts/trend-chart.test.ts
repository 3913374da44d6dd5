import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { chartPoints } from "../../../src/render/charts/chart-points.js";
import { CHART_COLOURS } from "../../../src/render/charts/chart-spec.js";
import { CHART_SIZE, type Chart, trendCharts } from "../../../src/render/charts/trend-chart.js";
import { CHART_WINDOW, chartDays, chartInput, GOLDEN_CHARTS, SPIKE_DATE } from "./chart-fixture.js";
import { countColour, decodePng, differingPixels, type Pixels, pngSize } from "./png-pixels.js";

// A chart is judged by its pixels: it decodes, has the size asked, changes where the data
// change and nowhere else, and matches the golden image of its kind within a tolerance
// (regenerate them with `npx tsx scripts/update-chart-goldens.ts`, then look at them).

const WIDTH = CHART_SIZE.width * CHART_SIZE.scale;
const HEIGHT = CHART_SIZE.height * CHART_SIZE.scale;

/** One painter for the file, as a digest has: the spec is parsed once, not per chart. */
const charts = trendCharts();
const draw = (input: Parameters<typeof charts.draw>[0], name: string) => charts.draw(input, name);

describe("a trend chart", () => {
  it("is a PNG of the asked size, drawn at 2× for the CSS size it is shown at", async () => {
    const chart = await draw(chartInput("flakyRate"), "team-flaky-rate");
    expect(pngSize(chart.png)).toEqual({ width: WIDTH, height: HEIGHT });
    const pixels = decodePng(chart.png);
    expect({ width: pixels.width, height: pixels.height }).toEqual({
      width: WIDTH,
      height: HEIGHT,
    });
    expect(countColour(pixels, CHART_COLOURS.line)).toBeGreaterThan(500);
    expect({ cssWidth: chart.cssWidth, cssHeight: chart.cssHeight }).toEqual({
      cssWidth: 600,
      cssHeight: 260,
    });
    // As wide as the mail's card; the mail lets it shrink to a 390 px phone (email-charts.ts).
    expect(chart.cssWidth).toBeLessThanOrEqual(600);
  });

  it("is the same image for the same data, and differs only around the day that differs", async () => {
    const input = chartInput("flakyRate", { thresholds: [] });
    const base = decodePng((await draw(input, "a")).png);
    const again = decodePng((await draw(input, "a")).png);
    expect(differingPixels(base, again).count).toBe(0);
    // One day early in the window, Sep 29, from ~2% to 8%: only the left of the plot changes.
    const changed = chartInput("flakyRate", {
      thresholds: [],
      days: chartDays({ "2026-09-29": { flaky: 160, tests: 2000 } }),
    });
    const diff = differingPixels(base, decodePng((await draw(changed, "a")).png));
    expect(diff.count).toBeGreaterThan(100);
    expect(diff.maxX).toBeLessThan(WIDTH * 0.35);
  });

  it("is drawn the same by a drawer that drew other charts before it (one Vega view for a digest)", async () => {
    // Between two draws of the same chart: other axes (a pass rate from 60% with its own
    // title), no thresholds, and a day with no runs, so anything the view kept would show.
    const first = chartInput("flakyRate");
    const others = [
      chartInput("runPassRate", { subject: "A much longer project name, Ünïcødé" }),
      chartInput("flakyRate", {
        thresholds: [],
        days: chartDays({ "2026-10-21": { flaky: null }, "2026-10-22": { flaky: 900 } }),
      }),
    ];
    const drawer = trendCharts();
    const again = [first, ...others, first];
    const drawn = [];
    for (const input of again) drawn.push(decodePng((await drawer.draw(input, "a")).png));
    const fresh = await Promise.all(
      again.map(async (input) => decodePng((await trendCharts().draw(input, "a")).png)),
    );
    for (const [i, image] of drawn.entries()) {
      expect(differingPixels(image, fresh[i] as typeof image).count).toBe(0);
    }
    expect(differingPixels(drawn[0] as Pixels, drawn[1] as Pixels).count).toBeGreaterThan(1000);
  });

  it("lets the event loop turn between charts asked for at once, where Node frees the last one's native buffers", async () => {
    // resvg's pixmaps are freed by finalizers Node runs from the event loop, so charts drawn
    // back to back with only promises between them would all be held until the last.
    const drawer = trendCharts();
    let turns = 0;
    let pending = true;
    const turn = (): void => {
      turns++;
      if (pending) setImmediate(turn);
    };
    setImmediate(turn);
    const turnsWhenDrawn: number[] = [];
    const inputs = [chartInput("flakyRate"), chartInput("runPassRate"), chartInput("flakyRate")];
    await Promise.all(
      inputs.map(async (input) => {
        await drawer.draw(input, "a");
        turnsWhenDrawn.push(turns);
      }),
    );
    pending = false;
    expect(turnsWhenDrawn).toHaveLength(3);
    expect(turnsWhenDrawn[2]).toBeGreaterThan(turnsWhenDrawn[0] as number);
    expect(turnsWhenDrawn[1]).toBeGreaterThan(turnsWhenDrawn[0] as number);
    expect(turnsWhenDrawn[2]).toBeGreaterThan(turnsWhenDrawn[1] as number);
  });

  it("cuts a long project name in the title instead of narrowing the plot to make room", async () => {
    const short = decodePng((await draw(chartInput("flakyRate"), "a")).png);
    const subject = "Payments platform end-to-end regression suite (nightly, all regions)";
    const long = await draw(chartInput("flakyRate", { subject }), "a");
    // The title and subtitle take the top ~80 device pixels; below them the plots are the same.
    const below = (p: Pixels): Pixels => ({
      width: p.width,
      height: p.height - 100,
      rgba: p.rgba.subarray(p.width * 4 * 100),
    });
    expect(differingPixels(below(short), below(decodePng(long.png))).count).toBe(0);
    expect(long.alt).toContain(subject);
  });

  it("draws a title that fits whole: text is measured in the font's own widths, not guessed", async () => {
    // Vega's guess without a canvas (0.8 em a character) cut this title after "(tea".
    const title = async (subject: string) => {
      const p = decodePng((await draw(chartInput("flakyRate", { subject }), "a")).png);
      return { width: p.width, height: 40, rgba: p.rgba.subarray(0, p.width * 4 * 40) };
    };
    const team = await title("Checkout squad (team)");
    expect(differingPixels(team, await title("Checkout squad (teaX)")).count).toBeGreaterThan(0);
  });

  it("draws charts asked for at once one after another, each with its own data", async () => {
    const drawer = trendCharts();
    const inputs = [chartInput("flakyRate"), chartInput("runPassRate"), chartInput("flakyRate")];
    const [a, b, c] = await Promise.all(inputs.map((input) => drawer.draw(input, "a")));
    const pixels = [a, b, c].map((chart) => decodePng((chart as Chart).png));
    expect(differingPixels(pixels[0] as Pixels, pixels[2] as Pixels).count).toBe(0);
    expect(differingPixels(pixels[0] as Pixels, pixels[1] as Pixels).count).toBeGreaterThan(1000);
  });

  it("leaves a gap on a day without runs instead of drawing 0%", async () => {
    // Every day at 3%, one Wednesday either without runs or with a true 0%.
    const flat = (override: { flaky: number | null; tests?: number }) =>
      chartInput("flakyRate", {
        thresholds: [],
        days: chartDays(
          Object.fromEntries(
            chartDays().map((d) => [
              d.date,
              d.date === "2026-10-21" ? override : { flaky: 60, tests: 2000 },
            ]),
          ),
        ),
      });
    const bottom = { y0: Math.round(HEIGHT * 0.82), y1: Math.round(HEIGHT * 0.88) };
    const gap = decodePng((await draw(flat({ flaky: null }), "gap")).png);
    const zero = decodePng((await draw(flat({ flaky: 0, tests: 2000 }), "zero")).png);
    expect(countColour(zero, CHART_COLOURS.line, bottom)).toBeGreaterThan(20);
    expect(countColour(gap, CHART_COLOURS.line, bottom)).toBe(0);
  });

  it("draws the alert thresholds only when the team has an alert on the metric", async () => {
    const withAlert = decodePng((await draw(chartInput("flakyRate"), "a")).png);
    const without = decodePng((await draw(chartInput("flakyRate", { thresholds: [] }), "a")).png);
    expect(countColour(withAlert, CHART_COLOURS.critical, {}, 20)).toBeGreaterThan(300);
    expect(countColour(withAlert, CHART_COLOURS.warn, {}, 20)).toBeGreaterThan(200);
    expect(countColour(without, CHART_COLOURS.critical, {}, 20)).toBe(0);
    expect(countColour(without, CHART_COLOURS.warn, {}, 20)).toBe(0);
  });

  it("bands a small day's rate widely and a large day's narrowly (Wilson, 95%)", () => {
    const points = chartPoints("flakyRate", chartDays());
    const spike = points.find((p) => p.date === SPIKE_DATE);
    const ordinary = points.find((p) => p.date === "2026-11-10");
    const width = (p?: { low: number | null; high: number | null }) =>
      (p?.high ?? 0) - (p?.low ?? 0);
    expect(spike?.sample).toBe(40);
    expect(width(spike)).toBeGreaterThan(0.1);
    expect(width(ordinary)).toBeLessThan(0.02);
    expect(points.filter((p) => p.rate === null).map((p) => p.date)).toContain("2026-11-14");
  });

  it("says in words what the picture shows", async () => {
    const chart = await draw(chartInput("flakyRate"), "a");
    expect(chart.alt).toMatch(/^Flaky rate · Checkout \(team\) by day, Sep 21 – Nov 15, 2026; /);
    expect(chart.alt).toContain("the prior period (Nov 2 – 8, 2026)");
    expect(chart.alt).toContain("highest day 15.0% on Nov 12, 2026 (40 results)");
    expect(chart.alt).toContain("16 days without results");
    expect(chart.alt).toContain("warn at 5.0%; critical at 10.0%");
    const pass = await draw(chartInput("runPassRate", { thresholds: [] }), "b");
    expect(pass.alt).toContain("lowest day");
    expect(pass.alt).not.toContain("warn at");
    expect(CHART_WINDOW.end).toBe("2026-11-15");
  });

  for (const [kind, input] of Object.entries(GOLDEN_CHARTS)) {
    it(`matches the golden ${kind} image within a tolerance`, async () => {
      const golden = decodePng(await readFile(new URL(`./golden/${kind}.png`, import.meta.url)));
      const drawn = decodePng((await draw(input, kind)).png);
      // Antialiasing may differ by a resvg patch release; a changed line or label does not hide in 0.5%.
      expect(differingPixels(golden, drawn).count).toBeLessThan(WIDTH * HEIGHT * 0.005);
    });
  }
});
