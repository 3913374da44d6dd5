import { isRate, lowIsBad } from "./alert-metrics.js";
import { thresholdsFor } from "./thresholds.js";
import type { AlertRule, Sample, ScopeResult } from "./types.js";

// What one sample says against the thresholds, before `for`, hysteresis and on_no_data. With
// an interval, a threshold counts as crossed only when the whole interval lies past it, so a
// small sample neither fires nor resolves on chance alone.

export type Verdict = ScopeResult["verdict"];

/** critical / warn: breaching; ok: past clear_at on the good side; between: neither. */
export function verdictOf(rule: AlertRule, sample: Sample): Verdict {
  if (sample.value === null) return "no_data";
  // The runs count is its own evidence: a suite that stopped has no tests, and that is the news.
  if (isRate(rule.metric) && sample.size < rule.minTests) return "no_data";
  // Relative thresholds without a normal to lay them on: no verdict either.
  const thresholds = thresholdsFor(rule, sample.normal);
  if (thresholds === null) return "no_data";
  const low = lowIsBad(rule.metric);
  // The bound nearest the good side must be past a bad threshold; the bound nearest the bad
  // side must be past clear_at.
  const towardsGood = sample.interval
    ? low
      ? sample.interval.high
      : sample.interval.low
    : sample.value;
  const towardsBad = sample.interval
    ? low
      ? sample.interval.low
      : sample.interval.high
    : sample.value;
  const worse = (v: number, threshold: number) => (low ? v <= threshold : v >= threshold);
  if (worse(towardsGood, thresholds.criticalAt)) return "critical";
  if (worse(towardsGood, thresholds.warnAt)) return "warn";
  const better = low ? towardsBad > thresholds.clearAt : towardsBad < thresholds.clearAt;
  return better ? "ok" : "between";
}
