import { describe, expect, it } from "vitest";
import { chartPoints } from "../../../src/render/charts/chart-points.js";
import { chartMetricOf, chartThresholds } from "../../../src/render/charts/chart-thresholds.js";
import { figures } from "../report-fixture.js";

// The shares that creep are charted like the flaky rate: by day, with their Wilson band and
// their alert's lines; a threshold relative to a normal has no one line to draw.

describe("charts of the creep metrics and of relative alerts", () => {
  it("skipped_share, timed_out_share and the mean duration each have a chart", () => {
    expect(chartMetricOf("skipped_share")).toBe("skippedShare");
    expect(chartMetricOf("timed_out_share")).toBe("timedOutShare");
    expect(chartMetricOf("mean_run_duration")).toBe("meanRunDuration");
  });

  it("plots the mean run duration in minutes, a line without a band", () => {
    const day = figures({ runsPassed: 10, testsPassed: 900, meanRunDurationMs: 12 * 60_000 });
    const [point] = chartPoints("meanRunDuration", [{ date: "2026-11-10", figures: day }]);
    expect(point).toMatchObject({ rate: 12, low: null, high: null, sample: 10 });
  });

  it("plots the skipped share of each day's test results", () => {
    const day = figures({ runsPassed: 10, testsPassed: 900, testsSkipped: 100, testsFlaky: 0 });
    const [point] = chartPoints("skippedShare", [{ date: "2026-11-10", figures: day }]);
    expect(point?.rate).toBeCloseTo(0.1);
    expect(point?.sample).toBe(1000);
  });

  it("draws a share alert's lines, and none for thresholds relative to a normal", () => {
    const alerts = [
      { metric: "skipped_share" as const, warnAt: 10, criticalAt: 20, against: null },
      {
        metric: "skipped_share" as const,
        warnAt: 1,
        criticalAt: 3,
        against: { baseline: "median_of_4_weeks" as const, by: "points" as const },
      },
    ];
    expect(chartThresholds("skippedShare", alerts)).toEqual([
      { level: "warn", value: 0.1 },
      { level: "critical", value: 0.2 },
    ]);
  });
});
