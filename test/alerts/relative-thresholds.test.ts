import { describe, expect, it } from "vitest";
import { evaluateAlert } from "../../src/alerts/evaluate-alert.js";
import type { AlertRule, ScopeWindow, WindowCounts } from "../../src/alerts/types.js";
import { counts, rule } from "./alert-builders.js";

// Thresholds against a project's own normal: the median of 4 earlier windows, each threshold
// an offset from it (pp for rates, or a percent of the normal).

const now = "2026-11-20T09:00:00.000Z";

/** A flaky-rate rule 1 pp / 3 pp above the normal, clearing 0.5 pp above it. */
function relative(overrides: Partial<AlertRule> = {}): AlertRule {
  return rule({
    warnAt: 1,
    criticalAt: 3,
    clearAt: 0.5,
    against: { baseline: "median_of_4_weeks", by: "points" },
    ...overrides,
  });
}

function evaluate(r: AlertRule, current: WindowCounts, baseline: (WindowCounts | null)[]) {
  const window: ScopeWindow = {
    scope: "p1",
    name: "Search API",
    current,
    prior: null,
    daily: [],
    baseline,
  };
  const evaluation = evaluateAlert({
    rule: r,
    windows: [window],
    states: new Map(),
    now,
    key: "k",
  });
  const result = evaluation.results[0];
  if (!result) throw new Error("no result");
  return { result, transition: evaluation.transitions[0] };
}

const steady = [counts(0.8), counts(0.7), counts(0.9), counts(0.8)];

describe("relative thresholds", () => {
  it("the normal is the median of the baseline's counts, as a rate", () => {
    const { result } = evaluate(relative(), counts(1.2), steady);
    expect(result.sample.normal).toEqual({ value: 0.8, windows: 4 });
  });

  it("fires at warn when the value is more than warn_at pp above the normal", () => {
    const { result, transition } = evaluate(relative(), counts(2.4), steady);
    expect(result.verdict).toBe("warn");
    expect(transition?.threshold).toBeCloseTo(1.8);
  });

  it("is critical past critical_at pp above the normal", () => {
    expect(evaluate(relative(), counts(4), steady).result.verdict).toBe("critical");
  });

  it("stays ok under a fixed threshold's reach when the project's normal is high", () => {
    const high = [counts(6), counts(6.2), counts(5.8), counts(6)];
    expect(evaluate(relative(), counts(6.4), high).result.verdict).toBe("ok");
  });

  it("a percent of the normal: +50% of 2% is 3%", () => {
    const r = relative({
      warnAt: 50,
      criticalAt: 100,
      clearAt: 25,
      against: { baseline: "median_of_4_weeks", by: "percent" },
    });
    const normal = [counts(2), counts(2), counts(2), counts(2)];
    expect(evaluate(r, counts(3.2), normal).result.verdict).toBe("warn");
    expect(evaluate(r, counts(2.8), normal).result.verdict).toBe("between");
    expect(evaluate(r, counts(4.1), normal).result.verdict).toBe("critical");
  });

  it("a metric bad when low takes negative offsets below its normal", () => {
    const r = relative({
      metric: "test_pass_rate",
      warnAt: -2,
      criticalAt: -5,
      clearAt: -1,
    });
    const passing = (percent: number) => ({ ...counts(0), testsPassed: percent * 10 });
    const normal = [passing(98), passing(97), passing(98), passing(99)];
    expect(evaluate(r, passing(95), normal).result.verdict).toBe("warn");
    expect(evaluate(r, passing(92), normal).result.verdict).toBe("critical");
    expect(evaluate(r, passing(97.5), normal).result.verdict).toBe("ok");
  });

  it("with confidence, the interval must clear normal + threshold", () => {
    // 2.4% of 300 results: the value is past 1.8%, its Wilson interval is not.
    const r = relative({ confidence: 0.95, minTests: 100 });
    expect(evaluate(r, counts(2.4, 300), steady).result.verdict).not.toBe("warn");
    expect(evaluate(r, counts(2.4, 50_000), steady).result.verdict).toBe("warn");
  });

  it("a baseline with fewer than 3 of its 4 windows holding min_tests is no_data", () => {
    const thin = [counts(0.8), counts(0.8, 100), null, counts(0.8)];
    const { result } = evaluate(relative({ minTests: 200 }), counts(5), thin);
    expect(result.verdict).toBe("no_data");
    expect(result.sample.normal).toBeNull();
  });

  it("3 of 4 windows are enough, and the normal is their median", () => {
    const three = [counts(0.6), null, counts(1), counts(0.8)];
    const { result } = evaluate(relative(), counts(5), three);
    expect(result.sample.normal).toEqual({ value: 0.8, windows: 3 });
    expect(result.verdict).toBe("critical");
  });

  it("on_no_data: fire fires on a thin baseline", () => {
    const { transition } = evaluate(relative({ onNoData: "fire" }), counts(1), [null, null]);
    expect(transition?.kind).toBe("fired");
  });

  it("a creep metric against its normal: the mean duration 20% above it", () => {
    const r = relative({
      metric: "mean_run_duration",
      warnAt: 20,
      criticalAt: 50,
      clearAt: 10,
      against: { baseline: "median_of_4_weeks", by: "percent" },
    });
    const lasting = (minutes: number): WindowCounts => ({
      ...counts(0),
      runDurationMs: 20 * minutes * 60_000,
      timedRuns: 20,
    });
    const normal = [lasting(10), lasting(11), lasting(10), lasting(9)];
    const { result } = evaluate(r, lasting(12.5), normal);
    expect(result.sample.normal).toEqual({ value: 10, windows: 4 });
    expect(result.verdict).toBe("warn");
  });
});
