import { describe, expect, it } from "vitest";
import type { ChartData } from "../../../src/render/charts/chart-spec.js";
import {
  type DigestChartData,
  renderDigestCharts,
} from "../../../src/render/charts/digest-charts.js";
import type { ChartPainter } from "../../../src/render/charts/draw-chart.js";
import { encodePng } from "../../../src/render/charts/png.js";
import { manyProjectsReport } from "../report-fixture.js";
import { CHART_PERIODS, CHART_WINDOW, chartDays, flakyWarningsOn } from "./chart-fixture.js";

// A digest's charts, as renderDigestCharts asks a painter for them and hands them back.

/** A painter that draws a blank pixel and notes each chart's title in the order it was asked. */
function notingPainter(): ChartPainter & { titles: string[] } {
  const titles: string[] = [];
  const png = encodePng({ width: 1, height: 1, pixels: new Uint8Array([255, 255, 255, 255]) });
  return {
    titles,
    async draw(data: ChartData) {
      titles.push(String(data.signals.chartTitle));
      return { png, width: 1, height: 1 };
    },
  };
}

function digest() {
  const base = manyProjectsReport(8);
  const alerted = base.projects.filter((p) => p.status === "ok").slice(0, 2);
  const report = {
    ...base,
    periods: { ...base.periods, ...CHART_PERIODS },
    alerts: flakyWarningsOn(alerted.map((p) => p.projectId)),
  };
  const data: DigestChartData = {
    window: CHART_WINDOW,
    team: chartDays(),
    projects: new Map(alerted.map((p) => [p.projectId, chartDays()])),
    thresholds: { flakyRate: [], runPassRate: [] },
  };
  return { report, data };
}

describe("a digest's charts", () => {
  it("come back team first, each subject's flaky rate before its run pass rate", async () => {
    const { report, data } = digest();
    const charts = await renderDigestCharts(report, data, { painter: notingPainter() });
    expect(charts.map((c) => c.name)).toEqual([
      "team-flaky-rate",
      "team-run-pass-rate",
      "project-1-flaky-rate",
      "project-1-run-pass-rate",
      "project-2-flaky-rate",
      "project-2-run-pass-rate",
    ]);
  });

  it("are drawn one metric after the other, so that each is laid out after one like it", async () => {
    const { report, data } = digest();
    const painter = notingPainter();
    await renderDigestCharts(report, data, { painter });
    expect(painter.titles.map((title) => title.split(" · ")[0])).toEqual([
      "Flaky rate",
      "Flaky rate",
      "Flaky rate",
      "Run pass rate",
      "Run pass rate",
      "Run pass rate",
    ]);
  });
});
