import type { AlertRule } from "../../alerts/types.js";
import { type ChartMetric, chartPanelKind } from "./chart-points.js";
import type { ChartThreshold } from "./chart-spec.js";

const ALERT_METRIC_OF: Record<ChartMetric, AlertRule["metric"]> = {
  flakyRate: "flaky_rate",
  runPassRate: "run_pass_rate",
  skippedShare: "skipped_share",
  timedOutShare: "timed_out_share",
  meanRunDuration: "mean_run_duration",
};

/** The chart of an alert's metric; null for a metric no chart draws (counts, test rates). */
export function chartMetricOf(metric: AlertRule["metric"]): ChartMetric | null {
  const found = Object.entries(ALERT_METRIC_OF).find(([, alertMetric]) => alertMetric === metric);
  return found ? (found[0] as ChartMetric) : null;
}

/**
 * The thresholds a chart of `metric` draws: the warn and critical levels of the team's alerts
 * on that metric (percent in config, fractions on the chart), each level once. An alert whose
 * thresholds are relative to each scope's normal has no one level to draw, and draws none.
 * A duration's are minutes on the chart as in the config.
 */
export function chartThresholds(
  metric: ChartMetric,
  alerts: readonly (Pick<AlertRule, "metric" | "warnAt" | "criticalAt"> &
    Partial<Pick<AlertRule, "against">>)[],
): ChartThreshold[] {
  // Rates are percent in config and fractions on the chart; durations minutes in both.
  const scale = chartPanelKind(metric) === "duration" ? 1 : 100;
  const seen = new Set<string>();
  const thresholds: ChartThreshold[] = [];
  for (const alert of alerts) {
    if (alert.metric !== ALERT_METRIC_OF[metric] || alert.against) continue;
    for (const [level, value] of [
      ["warn", alert.warnAt / scale],
      ["critical", alert.criticalAt / scale],
    ] as const) {
      const id = `${level}:${value}`;
      if (seen.has(id)) continue;
      seen.add(id);
      thresholds.push({ level, value });
    }
  }
  return thresholds;
}
