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

/** A painter that draws a blank pixel and notes each chart's spec, title and span names as asked. */
function notingPainter(): ChartPainter & {
  titles: string[];
  asked: string[];
  spanNames: string[][];
} {
  const titles: string[] = [];
  const asked: string[] = [];
  const spanNames: string[][] = [];
  const png = encodePng({ width: 1, height: 1, pixels: new Uint8Array([255, 255, 255, 255]) });
  return {
    titles,
    asked,
    spanNames,
    async draw(data: ChartData) {
      titles.push(String(data.signals.chartTitle));
      asked.push(data.spec);
      spanNames.push((data.datasets.spanNames0 ?? []).map((row) => String(row.label)));
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
  it("are one image per subject, both rates in it, the team's first", async () => {
    const { report, data } = digest();
    const painter = notingPainter();
    const charts = await renderDigestCharts(report, data, { painter });
    expect(charts.map((c) => c.name)).toEqual(["team-rates", "project-1-rates", "project-2-rates"]);
    expect(painter.asked).toEqual(["subject", "subject", "subject"]);
    // Each image's words cover both of its rates.
    for (const chart of charts) {
      expect(chart.alt).toMatch(/^Flaky rate · .* Run pass rate · /);
    }
  });

  it("call the team by its title, without a bracket after its own brackets", async () => {
    const { report, data } = digest();
    const painter = notingPainter();
    const team = { ...report.team, title: "Apps (Sydney)" };
    await renderDigestCharts({ ...report, team }, data, { painter });
    expect(painter.titles[0]).toBe("Apps (Sydney) · all projects");
    expect(painter.titles.join(" ")).not.toMatch(/\) \(/);
  });

  it("name the shaded spans after the digest's period", async () => {
    const { report, data } = digest();
    const painter = notingPainter();
    await renderDigestCharts(report, data, { painter });
    expect(painter.spanNames[0]).toEqual(["prior week", "this week"]);
  });
});
