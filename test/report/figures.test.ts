import { describe, expect, it } from "vitest";
import { dailySeries, sumDailySeries } from "../../src/report/daily-series.js";
import { emptyFigures, figuresFromCounts, sumFigures } from "../../src/report/figures.js";
import { insights, NO_TESTS, runs, tests } from "./builders.js";

describe("figuresFromCounts", () => {
  it("computes rates as fractions from the counts, with total results including skipped and timed out", () => {
    const f = figuresFromCounts(
      runs(45, 3, 724_000),
      tests({ passed: 900, failed: 40, skipped: 50, flaky: 30, timedOut: 10 }),
    );
    expect(f).toEqual({
      runs: 48,
      runsPassed: 45,
      runsFailed: 3,
      runPassRate: 45 / 48,
      meanRunDurationMs: 724_000,
      tests: 1000,
      testsPassed: 900,
      testsFailed: 40,
      testsSkipped: 50,
      testsFlaky: 30,
      testsTimedOut: 10,
      testPassRate: 0.9,
      flakyRate: 0.03,
    });
  });

  it("gives null rates and duration, not 0%, when there is nothing to divide by", () => {
    const f = figuresFromCounts(runs(0, 0, 5000), NO_TESTS);
    expect(f.runPassRate).toBeNull();
    expect(f.meanRunDurationMs).toBeNull();
    expect(f.testPassRate).toBeNull();
    expect(f.flakyRate).toBeNull();
    expect(f).toEqual(emptyFigures());
  });
});

describe("sumFigures", () => {
  it("pools counts: 99% of 1000 runs and 10% of 10 runs is 98.1%, not the 54.5% mean of rates", () => {
    const a = figuresFromCounts(
      runs(990, 10, 60_000),
      tests({ passed: 9_900, failed: 100, flaky: 100 }),
    );
    const b = figuresFromCounts(runs(1, 9, 600_000), tests({ passed: 10, failed: 90, flaky: 50 }));
    const total = sumFigures([a, b]);
    expect(total.runs).toBe(1010);
    expect(total.runPassRate).toBeCloseTo(991 / 1010, 12); // 98.1%
    expect(((a.runPassRate ?? 0) + (b.runPassRate ?? 0)) / 2).toBeCloseTo(0.545, 12);
    // Flaky: 150 of 10,100 results = 1.49%, where the mean of 1% and 50% would say 25.5%.
    expect(total.flakyRate).toBeCloseTo(150 / 10_100, 12);
    // Mean duration weighted by runs: (1000·60s + 10·600s) / 1010 = 65.35s, not the 330s mean.
    expect(total.meanRunDurationMs).toBeCloseTo((1000 * 60_000 + 10 * 600_000) / 1010, 6);
  });

  it("leaves parts with no runs out of the duration and of the rates", () => {
    const busy = figuresFromCounts(runs(8, 2, 30_000), tests({ passed: 10 }));
    const idle = emptyFigures();
    const total = sumFigures([busy, idle]);
    expect(total.meanRunDurationMs).toBe(30_000);
    expect(total.runPassRate).toBe(0.8);
    expect(total.testPassRate).toBe(1);
  });

  it("of nothing is empty figures", () => {
    expect(sumFigures([])).toEqual(emptyFigures());
  });
});

describe("dailySeries", () => {
  const period = { start: "2026-11-09", end: "2026-11-12" };

  it("has every day of the period; a day without data is zero counts with null rates", () => {
    const data = insights(period, {
      "2026-11-10": { runs: runs(3, 1), tests: tests({ passed: 20, flaky: 2 }) },
    });
    const series = dailySeries(data.days, period);
    expect(series.map((p) => p.date)).toEqual([
      "2026-11-09",
      "2026-11-10",
      "2026-11-11",
      "2026-11-12",
    ]);
    expect(series[0]?.figures).toEqual(emptyFigures());
    expect(series[0]?.figures.flakyRate).toBeNull();
    expect(series[1]?.figures.runPassRate).toBe(0.75);
    expect(series[1]?.figures.flakyRate).toBe(0.1);
  });

  it("fills days the API did not send (e.g. clamped at today) as days without data", () => {
    const data = insights(
      { start: "2026-11-09", end: "2026-11-10" },
      {
        "2026-11-09": { runs: runs(1, 0) },
      },
    );
    const series = dailySeries(data.days, period);
    expect(series).toHaveLength(4);
    expect(series[0]?.figures.runs).toBe(1);
    expect(series[3]?.figures).toEqual(emptyFigures());
  });

  it("sums projects day by day with rates from the summed counts", () => {
    const a = dailySeries(insights(period, { "2026-11-09": { runs: runs(99, 1) } }).days, period);
    const b = dailySeries(
      insights(period, { "2026-11-09": { runs: runs(0, 1) }, "2026-11-11": { runs: runs(1, 1) } })
        .days,
      period,
    );
    const total = sumDailySeries([a, b], period);
    expect(total.map((p) => p.figures.runPassRate)).toEqual([99 / 101, null, 0.5, null]);
  });
});
