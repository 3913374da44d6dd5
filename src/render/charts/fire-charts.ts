import type { AlertRule } from "../../alerts/types.js";
import type { Period } from "../../periods/types.js";
import type { DailyPoint } from "../../report/types.js";
import { CHART_SLUG } from "./chart-points.js";
import { chartMetricOf, chartThresholds } from "./chart-thresholds.js";
import { type Chart, type TrendChartOptions, trendCharts } from "./trend-chart.js";

// An alert fire's chart: the fired scope's rate by day over the days that led up to the fire,
// the fired window shaded against the one before it, and the alert's warn and critical lines,
// so whoever opens the thread sees whether it is a spike on a small day or a climb.

export interface FireChartInput {
  rule: Pick<AlertRule, "metric" | "warnAt" | "criticalAt">;
  /** The days drawn, ending with the fired window. */
  window: Period;
  periods: { current: Period; prior: Period };
  /** Each scope that fired, with its days over `window`. */
  scopes: readonly { scope: string; name: string; days: readonly DailyPoint[] }[];
}

/** One chart per fired scope; none for a metric no chart draws. */
export async function renderFireCharts(
  input: FireChartInput,
  options: TrendChartOptions = {},
): Promise<Chart[]> {
  const metric = chartMetricOf(input.rule.metric);
  if (metric === null) return [];
  const drawer = trendCharts(options);
  return Promise.all(
    input.scopes.map((scope) =>
      drawer.draw(
        {
          metric,
          subject: scope.name,
          window: input.window,
          days: scope.days,
          periods: input.periods,
          thresholds: chartThresholds(metric, [input.rule]),
        },
        `alert-${fileSafe(scope.scope)}-${CHART_SLUG[metric]}`,
      ),
    ),
  );
}

/** "team", "proj-web-e2e": letters, digits and dashes only, for a file name. */
function fileSafe(id: string): string {
  return id.replace(/[^A-Za-z0-9-]+/g, "-").slice(0, 60);
}
