import { describe, expect, it } from "vitest";
import { normalQuantile, wilsonInterval } from "../../src/alerts/wilson-interval.js";

describe("wilsonInterval", () => {
  it.each([
    // hits, trials, confidence, low, high (from R's prop.test(correct = FALSE) / textbook tables)
    [0, 10, 0.95, 0, 0.2775],
    [1, 10, 0.95, 0.0179, 0.4042],
    [50, 100, 0.95, 0.4038, 0.5962],
    [30, 1000, 0.95, 0.0211, 0.0425],
    [10, 10, 0.95, 0.7225, 1],
  ])("%i of %i at %f is [%f, %f]", (hits, trials, confidence, low, high) => {
    const interval = wilsonInterval(hits, trials, confidence);
    expect(interval.low).toBeCloseTo(low, 3);
    expect(interval.high).toBeCloseTo(high, 3);
  });

  it("narrows as the sample grows around the same rate", () => {
    const small = wilsonInterval(5, 100, 0.95);
    const large = wilsonInterval(500, 10_000, 0.95);
    expect(large.high - large.low).toBeLessThan((small.high - small.low) / 5);
  });

  it("widens with the confidence asked for", () => {
    const at90 = wilsonInterval(5, 100, 0.9);
    const at99 = wilsonInterval(5, 100, 0.99);
    expect(at99.low).toBeLessThan(at90.low);
    expect(at99.high).toBeGreaterThan(at90.high);
  });

  it("says nothing is known of an empty sample", () => {
    expect(wilsonInterval(0, 0, 0.95)).toEqual({ low: 0, high: 1 });
  });
});

describe("normalQuantile", () => {
  it.each([
    [0.975, 1.959964],
    [0.95, 1.644854],
    [0.995, 2.575829],
    [0.5, 0],
    [0.001, -3.090232],
  ])("at %f is %f", (p, z) => {
    expect(normalQuantile(p)).toBeCloseTo(z, 5);
  });
});
