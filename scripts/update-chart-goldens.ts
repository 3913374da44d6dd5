import { writeFile } from "node:fs/promises";
import { renderSubjectChart, renderTrendChart } from "../src/render/charts/trend-chart.js";
import { GOLDEN_CHARTS, GOLDEN_SUBJECT_CHART } from "../test/render/charts/chart-fixture.js";

// `npx tsx scripts/update-chart-goldens.ts`: redraws the golden image of each chart kind that
// test/render/charts/trend-chart.test.ts compares with (an alert's trend charts, a digest's
// subject chart), and the README's picture (docs/chart-flaky-rate.png: a team's subject chart
// from the same fixed days). Run it after changing how charts look,
// look at every image it writes, and commit them with the change.

const golden = (kind: string) =>
  new URL(`../test/render/charts/golden/${kind}.png`, import.meta.url);
const drawn = [
  ...Object.entries(GOLDEN_CHARTS).map(
    ([kind, input]) => [golden(kind), renderTrendChart(input, kind)] as const,
  ),
  [golden("subject"), renderSubjectChart(GOLDEN_SUBJECT_CHART, "subject")] as const,
  [
    new URL("../docs/chart-flaky-rate.png", import.meta.url),
    renderSubjectChart(
      { ...GOLDEN_SUBJECT_CHART, subject: "Checkout squad · all projects" },
      "team-rates",
    ),
  ] as const,
];
for (const [path, drawing] of drawn) {
  const chart = await drawing;
  await writeFile(path, chart.png);
  process.stdout.write(`wrote ${path.pathname} (${chart.width}×${chart.height})\n`);
}
