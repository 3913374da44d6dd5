import { writeFile } from "node:fs/promises";
import { renderTrendChart } from "../src/render/charts/trend-chart.js";
import { GOLDEN_CHARTS } from "../test/render/charts/chart-fixture.js";

// `npx tsx scripts/update-chart-goldens.ts`: redraws the golden image of each chart kind that
// test/render/charts/trend-chart.test.ts compares with. Run it after changing how charts look,
// look at every image it writes, and commit them with the change.

for (const [kind, input] of Object.entries(GOLDEN_CHARTS)) {
  const chart = await renderTrendChart(input, kind);
  const path = new URL(`../test/render/charts/golden/${kind}.png`, import.meta.url);
  await writeFile(path, chart.png);
  process.stdout.write(`wrote ${path.pathname} (${chart.width}×${chart.height})\n`);
}
