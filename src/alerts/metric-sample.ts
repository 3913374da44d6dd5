import { isRate } from "./alert-metrics.js";
import type { AlertMetric, AlertRule, Sample, ScopeWindow, WindowCounts } from "./types.js";
import { wilsonInterval } from "./wilson-interval.js";

// From a window's counts to the number an alert compares: percent for rates (with its Wilson
// interval), a plain count for runs.

/** hits / trials of a rate metric; null for `runs`, which is a count. */
function proportion(metric: AlertMetric, c: WindowCounts): { hits: number; trials: number } | null {
  switch (metric) {
    case "flaky_rate":
      return { hits: c.testsFlaky, trials: c.tests };
    case "test_fail_rate":
      return { hits: c.testsFailed, trials: c.tests };
    case "test_pass_rate":
      return { hits: c.testsPassed, trials: c.tests };
    case "run_pass_rate":
      return { hits: c.runsPassed, trials: c.runsPassed + c.runsFailed };
    case "runs":
      return null;
  }
}

/** The metric's value for counts, or null when there is nothing to divide. */
export function metricValue(metric: AlertMetric, c: WindowCounts | null): number | null {
  if (!c) return null;
  const p = proportion(metric, c);
  if (!p) return c.runs;
  return p.trials > 0 ? (100 * p.hits) / p.trials : null;
}

/** The scope's sample under the rule: value, interval, size, prior value and daily values. */
export function sampleOf(rule: AlertRule, window: ScopeWindow): Sample {
  const { metric } = rule;
  const c = window.current;
  const p = c ? proportion(metric, c) : null;
  const interval =
    c && p && p.trials > 0 && rule.confidence !== null
      ? scale(wilsonInterval(p.hits, p.trials, rule.confidence))
      : null;
  return {
    value: metricValue(metric, c),
    interval,
    size: c ? (isRate(metric) ? c.tests : c.runs) : 0,
    prior: metricValue(metric, window.prior),
    daily: window.daily.map((day) => metricValue(metric, day)),
  };
}

const scale = (i: { low: number; high: number }) => ({ low: 100 * i.low, high: 100 * i.high });
