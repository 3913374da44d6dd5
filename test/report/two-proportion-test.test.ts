import { describe, expect, it } from "vitest";
import { erfc, twoProportionTest, Z_95 } from "../../src/report/two-proportion-test.js";

/*
 * z values computed by hand with the pooled formula
 *   p = (x1 + x2) / (n1 + n2),  se = sqrt(p (1 − p) (1/n1 + 1/n2)),  z = (x1/n1 − x2/n2) / se
 * and two-sided p-values erfc(|z| / √2) from a reference implementation.
 */
describe("twoProportionTest", () => {
  it.each([
    // 6.0% vs 3.0% of 1000: p = 0.045, se = 0.0092709, z = 3.2359, p = 0.00121
    { current: [60, 1000], prior: [30, 1000], z: 3.235924, p: 0.0012125, significant: true },
    // 3.0% vs 2.0% of 400: p = 0.025, se = 0.0110397, z = 0.9058, p = 0.365 (noise)
    { current: [12, 400], prior: [8, 400], z: 0.9058216, p: 0.3650303, significant: false },
    // just below the line: 5.9% vs 4.0% of 1000 gives z = 1.95866 < 1.959964
    { current: [59, 1000], prior: [40, 1000], z: 1.958664, p: 0.0501521, significant: false },
    // just above it: 6.0% vs 4.0% of 1000 gives z = 2.05196
    { current: [60, 1000], prior: [40, 1000], z: 2.0519567, p: 0.0401739, significant: true },
    // a fall is negative z and just as significant: 90% vs 95% of 1000
    { current: [900, 1000], prior: [950, 1000], z: -4.2447636, p: 0.0000219, significant: true },
  ])("$current vs $prior: z = $z, significant = $significant", (row) => {
    const [x1, n1] = row.current as [number, number];
    const [x2, n2] = row.prior as [number, number];
    const test = twoProportionTest({ hits: x1, trials: n1 }, { hits: x2, trials: n2 });
    expect(test.z).toBeCloseTo(row.z, 6);
    expect(test.pValue).toBeCloseTo(row.p, 6);
    expect(test.significant).toBe(row.significant);
  });

  it.each([
    ["all pass in both", [500, 500], [20, 20]],
    ["none flaky in both", [0, 500], [0, 20]],
  ])("a pooled rate of 0 or 1 (%s) is not significant and gives no NaN", (_name, c, p) => {
    const [x1, n1] = c as [number, number];
    const [x2, n2] = p as [number, number];
    const test = twoProportionTest({ hits: x1, trials: n1 }, { hits: x2, trials: n2 });
    expect(test).toEqual({ z: 0, pValue: 1, significant: false });
  });

  it("gives finite results for huge samples and extreme differences", () => {
    const test = twoProportionTest({ hits: 1_000_000, trials: 1_000_000 }, { hits: 0, trials: 1 });
    expect(Number.isFinite(test.z)).toBe(true);
    expect(test.pValue).toBeGreaterThanOrEqual(0);
    expect(test.pValue).toBeLessThan(1e-6);
    expect(test.significant).toBe(true);
  });

  it("uses the 95% two-sided critical value", () => {
    expect(erfc(Z_95 / Math.SQRT2)).toBeCloseTo(0.05, 6);
  });

  it.each([
    [0, 1],
    [1, 0.157299207],
    [-1, 1.842700793],
    [3, 0.0000220905],
  ])("erfc(%d) = %d", (x, expected) => {
    expect(erfc(x)).toBeCloseTo(expected, 6);
  });
});
