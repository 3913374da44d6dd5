// The alert metrics, declared once: each one's unit, the direction that is bad and the name
// people read. The config schema, the threshold rules, the engine and every renderer read
// this table; a new metric is one row here plus its counts in metric-sample.ts.

export interface AlertMetricFacts {
  /**
   * percent: a rate of 0–100 with a Wilson interval; count: a plain number of runs; minutes: a
   * run-weighted mean duration.
   */
  unit: "percent" | "count" | "minutes";
  badWhen: "high" | "low";
  /** As people read it: "flaky rate". */
  name: string;
  /** Whether a trend chart draws it (an alert's `chart:`): the rates, and the mean run duration in minutes. */
  charted: boolean;
}

export const ALERT_METRIC_TABLE = {
  flaky_rate: { unit: "percent", badWhen: "high", name: "flaky rate", charted: true },
  test_fail_rate: { unit: "percent", badWhen: "high", name: "test fail rate", charted: false },
  run_pass_rate: { unit: "percent", badWhen: "low", name: "run pass rate", charted: true },
  test_pass_rate: { unit: "percent", badWhen: "low", name: "test pass rate", charted: false },
  runs: { unit: "count", badWhen: "low", name: "runs", charted: false },
  mean_run_duration: {
    unit: "minutes",
    badWhen: "high",
    name: "mean run duration",
    charted: true,
  },
  skipped_share: { unit: "percent", badWhen: "high", name: "skipped share", charted: true },
  timed_out_share: { unit: "percent", badWhen: "high", name: "timed-out share", charted: true },
} as const satisfies Record<string, AlertMetricFacts>;

export type AlertMetric = keyof typeof ALERT_METRIC_TABLE;

/** Every metric, in the table's order. */
export const ALERT_METRICS = Object.keys(ALERT_METRIC_TABLE) as [AlertMetric, ...AlertMetric[]];

/** Metrics that are bad when low; the rest are bad when high. */
export function lowIsBad(metric: AlertMetric): boolean {
  return ALERT_METRIC_TABLE[metric].badWhen === "low";
}

/** A rate in percent (with an interval and a test count behind it), not a count or a duration. */
export function isRate(metric: AlertMetric): boolean {
  return ALERT_METRIC_TABLE[metric].unit === "percent";
}

/** "flaky rate". */
export function metricName(metric: AlertMetric): string {
  return ALERT_METRIC_TABLE[metric].name;
}

/** "flaky_rate, test_fail_rate: percent, bad when high; …", for the config's description. */
export function describeAlertMetrics(): string {
  const groups: { metrics: AlertMetric[]; facts: AlertMetricFacts }[] = [];
  for (const metric of ALERT_METRICS) {
    const facts = ALERT_METRIC_TABLE[metric];
    const last = groups.at(-1);
    if (last && last.facts.unit === facts.unit && last.facts.badWhen === facts.badWhen) {
      last.metrics.push(metric);
    } else groups.push({ metrics: [metric], facts });
  }
  const unit = (facts: AlertMetricFacts) =>
    ({ percent: "percent", count: "a count", minutes: "minutes" })[facts.unit];
  return `${groups
    .map((g) => `${g.metrics.join(", ")}: ${unit(g.facts)}, bad when ${g.facts.badWhen}`)
    .join("; ")}.`;
}
