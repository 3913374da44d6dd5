import { ALERT_METRIC_TABLE } from "./alert-metrics.js";
import { metricValue } from "./metric-sample.js";
import type { AlertMetric, AlertRule, Normal, Sample, ScopeWindow, WindowCounts } from "./types.js";

// A scope's normal, for thresholds relative to it: of the baseline's 4 windows, those that
// hold `min_tests` test results count; with fewer than 3 there is no normal (no_data), so a
// quiet or missing week cannot pass for the project's usual level. Each count is the median
// over those windows and a rate is computed from the median counts, never a median of
// percentages (as `compare_to: median_of_4_weeks` does); the duration is the median of the
// windows' mean durations.

/** Windows of the baseline that must hold data for a normal. */
export const MIN_BASELINE_WINDOWS = 3;

/** The sample with its scope's normal, when the rule's thresholds are relative to one. */
export function withNormal(rule: AlertRule, window: ScopeWindow, sample: Sample): Sample {
  if (rule.against === null) return sample;
  return { ...sample, normal: normalOf(rule.metric, window.baseline ?? [], rule.minTests) };
}

/** The normal of `metric` over the baseline windows; null when fewer than 3 hold `minTests`. */
function normalOf(
  metric: AlertMetric,
  baseline: readonly (WindowCounts | null)[],
  minTests: number,
): Normal | null {
  const held = baseline.filter((w): w is WindowCounts => w !== null && w.tests >= minTests);
  if (held.length < MIN_BASELINE_WINDOWS) return null;
  const value =
    ALERT_METRIC_TABLE[metric].unit === "minutes"
      ? median(held.flatMap((w) => metricValue(metric, w) ?? []))
      : metricValue(metric, medianCounts(held));
  return value === null ? null : { value, windows: held.length };
}

/** Each count the median of the windows' counts (a half rounded up, as whole counts). */
function medianCounts(windows: readonly WindowCounts[]): WindowCounts {
  const of = (pick: (w: WindowCounts) => number) => Math.round(median(windows.map(pick)) ?? 0);
  return {
    runs: of((w) => w.runs),
    runsPassed: of((w) => w.runsPassed),
    runsFailed: of((w) => w.runsFailed),
    tests: of((w) => w.tests),
    testsPassed: of((w) => w.testsPassed),
    testsFailed: of((w) => w.testsFailed),
    testsFlaky: of((w) => w.testsFlaky),
    testsSkipped: of((w) => w.testsSkipped),
    testsTimedOut: of((w) => w.testsTimedOut),
    runDurationMs: of((w) => w.runDurationMs),
    timedRuns: of((w) => w.timedRuns),
  };
}

/** The median of numbers (the mean of the middle two for an even count); null for none. */
function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle] as number;
  return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] as number) + upper) / 2;
}
