import { describe, expect, it } from "vitest";
import { totalsOfDays } from "../../src/insights/insights-within.js";
import type { InsightsDay } from "../../src/insights/types.js";

// A range cut into periods sums its days as the API's overall_data would: a day whose runs came
// with no mean duration says nothing of the others' durations.

const day = (date: string, runs: number, meanDurationMs: number | null): InsightsDay => ({
  date,
  runs: { passed: runs, failed: 0, meanDurationMs },
  tests: null,
});

describe("the totals of some days", () => {
  it("weight the mean duration by the runs of the days that have one", () => {
    const totals = totalsOfDays([day("2026-11-16", 10, null), day("2026-11-17", 10, 60_000)]);
    expect(totals.runs).toEqual({ passed: 20, failed: 0, meanDurationMs: 60_000 });
  });

  it("have no mean duration when none of the days has one, not 0", () => {
    const totals = totalsOfDays([day("2026-11-16", 5, null), day("2026-11-17", 6, null)]);
    expect(totals.runs.meanDurationMs).toBeNull();
  });

  it("weight each day's mean by its runs", () => {
    const totals = totalsOfDays([day("2026-11-16", 1, 10_000), day("2026-11-17", 3, 50_000)]);
    expect(totals.runs.meanDurationMs).toBe(40_000);
  });
});
