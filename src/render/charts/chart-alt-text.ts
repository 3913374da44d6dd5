import type { Period } from "../../periods/types.js";
import type { DailyPoint } from "../../report/types.js";
import { formatCount, formatPeriod, formatRate, plural } from "../format.js";
import { formatChartValue } from "./chart-data.js";
import {
  type ChartMetric,
  chartPanelKind,
  chartPoints,
  metricCounts,
  risesBad,
  spanRate,
} from "./chart-points.js";
import type { ChartThreshold } from "./chart-spec.js";

// What a chart says in words: for screen readers, and for mail clients that block images, so
// the text is complete without the picture.

export interface AltTextInput {
  metric: ChartMetric;
  title: string;
  window: Period;
  periods: { current: Period; prior: Period };
  days: readonly DailyPoint[];
  thresholds: readonly ChartThreshold[];
}

const NAMES: Record<ChartMetric, { name: string; sample: string }> = {
  flakyRate: { name: "flaky rate", sample: "result" },
  runPassRate: { name: "run pass rate", sample: "run" },
  skippedShare: { name: "skipped share", sample: "result" },
  timedOutShare: { name: "timed-out share", sample: "result" },
  meanRunDuration: { name: "mean run duration", sample: "run" },
};

/** "Flaky rate of Checkout by day, Sep 29 – Nov 23, 2026: 2.1% this period (…), …". */
export function chartAltText(input: AltTextInput): string {
  const { metric, days, periods } = input;
  const names = NAMES[metric];
  const valueText = (v: number | null) =>
    v !== null && chartPanelKind(metric) === "duration"
      ? formatChartValue(metric, Number(v.toFixed(1)))
      : formatRate(v);
  const points = chartPoints(metric, days);
  const withData = points.filter((p) => p.rate !== null);
  const parts = [
    `${input.title} by day, ${formatPeriod(input.window)}`,
    `${valueText(spanRate(metric, days, periods.current))} this period (${formatPeriod(periods.current)})` +
      `, ${valueText(spanRate(metric, days, periods.prior))} the prior period (${formatPeriod(periods.prior)})`,
  ];
  const worst = withData.reduce<(typeof withData)[number] | null>((best, p) => {
    if (best === null || best.rate === null || p.rate === null) return p;
    const worse = risesBad(metric) ? p.rate > best.rate : p.rate < best.rate;
    return worse ? p : best;
  }, null);
  if (worst && worst.rate !== null) {
    const label = risesBad(metric) ? "highest" : "lowest";
    parts.push(
      `${label} day ${valueText(worst.rate)} on ${formatPeriod({ start: worst.date, end: worst.date })} (${plural(worst.sample, names.sample)})`,
    );
  }
  const empty = points.length - withData.length;
  if (withData.length === 0) parts.push(`no ${names.sample}s in the window`);
  else if (empty > 0) parts.push(`${plural(empty, "day")} without ${names.sample}s`);
  for (const th of input.thresholds) parts.push(`${th.level} at ${valueText(th.value)}`);
  const total = days.reduce((sum, d) => sum + metricCounts(metric, d.figures).trials, 0);
  parts.push(`${formatCount(total)} ${names.sample}s in all`);
  return `${parts.join("; ")}.`;
}
