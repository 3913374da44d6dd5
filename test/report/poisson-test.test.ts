import { describe, expect, it } from "vitest";
import { poissonTest } from "../../src/report/poisson-test.js";

/*
 * Reference p-values from scipy.stats.binomtest(x1, x1 + x2, t1 / (t1 + t2)), which is what
 * R's poisson.test(c(x1, x2), c(t1, t2)) computes.
 */
describe("poissonTest", () => {
  it.each([
    // a count that wobbles by chance: 20 → 17 runs in a day is noise
    { current: [17, 1], prior: [20, 1], p: 0.7428293587, significant: false },
    { current: [10, 1], prior: [20, 1], p: 0.0987371467, significant: false },
    // just past the line
    { current: [12, 1], prior: [25, 1], p: 0.0470310274, significant: true },
    { current: [40, 3], prior: [60, 3], p: 0.0568879336, significant: false },
    // the same fall on a large team is news
    { current: [1700, 1], prior: [2000, 1], p: 8.738822e-7, significant: true },
    // from zero: 5 failed tests after none is not yet news
    { current: [5, 1], prior: [0, 1], p: 0.0625, significant: false },
    { current: [0, 1], prior: [3, 1], p: 0.25, significant: false },
    // a 30-day month against a 31-day one with the same daily rate
    { current: [30, 30], prior: [31, 31], p: 1, significant: false },
  ])("$current vs $prior: p = $p", (row) => {
    const [x1, t1] = row.current as [number, number];
    const [x2, t2] = row.prior as [number, number];
    const test = poissonTest({ count: x1, exposure: t1 }, { count: x2, exposure: t2 });
    expect(test.pValue).toBeCloseTo(row.p, 7);
    expect(test.significant).toBe(row.significant);
  });

  // Exact sums (Python's big integers: every C(n, k)·t1^k·t2^(n−k) at most the observed one's
  // times 1 + 1e-7, over (t1 + t2)^n), where the walk starts far from the mode.
  it.each([
    { current: [8901, 1], prior: [9168, 1], p: 0.047829026387190415 },
    { current: [4800, 1], prior: [5200, 1], p: 6.593515598672442e-5 },
    { current: [960, 7], prior: [1040, 7], p: 0.07728689056266842 },
    { current: [7150, 1], prior: [8936, 1], p: 4.480715967443875e-45 },
    { current: [3028, 3], prior: [14420, 28], p: 3.5699639467863016e-214 },
  ])("$current vs $prior: within 1e-9 of the exact p = $p", (row) => {
    const [x1, t1] = row.current as [number, number];
    const [x2, t2] = row.prior as [number, number];
    const test = poissonTest({ count: x1, exposure: t1 }, { count: x2, exposure: t2 });
    expect(Math.abs(test.pValue - row.p) / row.p).toBeLessThan(1e-9);
    expect(test.significant).toBe(row.p < 0.05);
  });

  it("answers no change, not 0/0, when both counts are zero", () => {
    expect(poissonTest({ count: 0, exposure: 1 }, { count: 0, exposure: 1 })).toEqual({
      pValue: 1,
      significant: false,
    });
  });

  it("returns, as before its search, for exposures that sum to zero (a mode that is no number)", () => {
    // The search for where a far tail begins looped for ever on an infinite spread.
    expect(poissonTest({ count: 0, exposure: -1 }, { count: 1, exposure: 1 })).toEqual({
      pValue: 0,
      significant: true,
    });
  });

  it("uses the normal approximation for large totals, agreeing on the verdict", () => {
    const big = poissonTest({ count: 10_500, exposure: 1 }, { count: 10_000, exposure: 1 });
    expect(big.significant).toBe(true);
    const same = poissonTest({ count: 10_050, exposure: 1 }, { count: 10_000, exposure: 1 });
    expect(same.significant).toBe(false);
  });
});
