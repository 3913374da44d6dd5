import { ALERT_METRIC_TABLE, isRate } from "./alert-metrics.js";
import type { AlertMetric, AlertRule, Sample, ScopeWindow, WindowCounts } from "./types.js";
import { wilsonInterval } from "./wilson-interval.js";

// From a window's counts to the number an alert compares: percent for rates (with its Wilson
// interval), a plain count for runs, minutes for the mean run duration.

/** hits / trials of a rate metric; null for `runs` and the duration, which are not rates. */
export function proportion(
  metric: AlertMetric,
  c: WindowCounts,
): { hits: number; trials: number } | null {
  switch (metric) {
    case "flaky_rate":
      return { hits: c.testsFlaky, trials: c.tests };
    case "test_fail_rate":
      return { hits: c.testsFailed, trials: c.tests };
    case "test_pass_rate":
      return { hits: c.testsPassed, trials: c.tests };
    case "skipped_share":
      return { hits: c.testsSkipped, trials: c.tests };
    case "timed_out_share":
      return { hits: c.testsTimedOut, trials: c.tests };
    case "run_pass_rate":
      return { hits: c.runsPassed, trials: c.runsPassed + c.runsFailed };
    case "runs":
    case "mean_run_duration":
      return null;
  }
}

const MINUTE_MS = 60_000;

/** The metric's value for counts, or null when there is nothing to divide. */
export function metricValue(metric: AlertMetric, c: WindowCounts | null): number | null {
  if (!c) return null;
  if (ALERT_METRIC_TABLE[metric].unit === "minutes")
    return c.timedRuns > 0 ? c.runDurationMs / c.timedRuns / MINUTE_MS : null;
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
