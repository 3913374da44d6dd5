import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Chart } from "../render/charts/trend-chart.js";

/** Writes each chart to `dir` as `<prefix><name>.png`; returns the paths written. */
export async function writeCharts(
  dir: string,
  charts: readonly Chart[],
  prefix = "",
): Promise<string[]> {
  if (charts.length === 0) return [];
  await mkdir(dir, { recursive: true });
  const paths: string[] = [];
  for (const chart of charts) {
    const path = join(dir, `${prefix}${chart.name}.png`);
    await writeFile(path, chart.png);
    paths.push(path);
  }
  return paths;
}
