import { fileURLToPath } from "node:url";
import { Resvg } from "@resvg/resvg-js";
import { describe, expect, it } from "vitest";
import { CHART_FONT } from "../../../src/render/charts/chart-assets.js";
import { CHART_COLOURS } from "../../../src/render/charts/chart-spec.js";
import { CHART_SIZE, trendCharts } from "../../../src/render/charts/trend-chart.js";
import { chartInput } from "./chart-fixture.js";
import { countColour, decodePng, differingPixels, pngSize } from "./png-pixels.js";

// The charts' font is DejaVu Sans cut down to the scripts names are written in
// (scripts/subset-chart-font.ts). Text in those scripts is drawn exactly as the whole font
// draws it, and a name in a script the cut left out still gives a chart.

const WHOLE_FONT = fileURLToPath(new URL("../../../scripts/fonts/DejaVuSans.ttf", import.meta.url));

/** Names a team might give its projects, one script or block per line. */
const KEPT = [
  "Checkout Web E2E – nightly (eu-west) · 12.5% → 3%",
  "Zürich Straße Ærø Ñandú Çağrı façade naïve øre Åland",
  "Łódź Świętokrzyskie Żabka Čeština Šibenik Ďurčo Ősz Ű",
  "Ștefan Țară İzmir ığdır Ģirts Ķekava Ņ Ľubica Ŀ ǅ ʻOkina",
  "Ελληνικά αβγδεζηθ ΑΒΓΔ Ωμέγα ΐ",
  "Русский Ёжик Україна Їжак Ґанок Беларусь Ў Српски Ђ Ћ Џ Қазақ Ә Ө",
  "Việt Nam Tiếng Việt Ẵ ẫ ỗ ự Ẁales ẃ",
  "“quoted” ‘single’ „low” «guillemets» … • — − ± × ÷ ≤ ≥ ≠ ≈ ∞ € £ ¥ № ™ ← ↑ ↓ ↔ ▲ ▼ ●",
  "e\u0301 a\u0308 o\u0303 n\u0303 (combining marks)",
];

function drawText(lines: readonly string[], fontFile: string): ReturnType<typeof decodePng> {
  const texts = lines
    .map(
      (line, i) =>
        `<text x="4" y="${20 + i * 22}" font-family="${CHART_FONT.family}" font-size="14">${line}</text>`,
    )
    .join("");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="${lines.length * 22 + 10}">${texts}</svg>`;
  const image = new Resvg(svg, {
    background: "#ffffff",
    font: { loadSystemFonts: false, fontFiles: [fontFile], defaultFontFamily: CHART_FONT.family },
  }).render();
  return decodePng(image.asPng());
}

describe("the charts' font", () => {
  it("draws names in Latin, Greek, Cyrillic and Vietnamese, and the punctuation and arrows of labels, as the whole DejaVu Sans does", () => {
    const cut = drawText(KEPT, CHART_FONT.file);
    const whole = drawText(KEPT, WHOLE_FONT);
    expect(countColour(cut, "#000000", {}, 80)).toBeGreaterThan(5000);
    expect(differingPixels(cut, whole).count).toBe(0);
  });

  it("is the cut: scripts it leaves out draw differently from the whole font", () => {
    // Hebrew and Arabic are in the whole DejaVu Sans but not in the cut.
    const others = ["עברית", "العربية"];
    expect(
      differingPixels(drawText(others, CHART_FONT.file), drawText(others, WHOLE_FONT)).count,
    ).toBeGreaterThan(100);
  });

  it("still gives a chart for a name in a script it leaves out", async () => {
    const drawer = trendCharts();
    const chart = await drawer.draw(
      chartInput("flakyRate", { subject: "チェックアウト 결제 עברית العربية 🚀" }),
      "team-flaky-rate",
    );
    expect(pngSize(chart.png)).toEqual({
      width: CHART_SIZE.width * CHART_SIZE.scale,
      height: CHART_SIZE.height * CHART_SIZE.scale,
    });
    expect(countColour(decodePng(chart.png), CHART_COLOURS.line)).toBeGreaterThan(500);
    expect(chart.alt).toContain("チェックアウト 결제");
  });
});
