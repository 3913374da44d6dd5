import { ALERT_METRIC_TABLE, isRate } from "../../alerts/alert-metrics.js";
import { MIN_BASELINE_WINDOWS } from "../../alerts/normal.js";
import type { AlertBaseline, AlertMetric, Normal } from "../../alerts/types.js";
import { periodDays, weekdayOf } from "../../periods/calendar-date.js";
import type { Period } from "../../periods/types.js";
import { WEEKDAYS } from "../comparison-label.js";
import { fixed, formatCount, formatDuration } from "../format.js";

// The words of an alert against a scope's own normal: which windows the normal is the median
// of, how far the value sits from it, and the thresholds as offsets. The difference is taken
// between the two figures as shown, so "2.4% — 1.6 pp above its normal 0.8%" always adds up.

/** 4.2 → "4.2%" for rates; 12 → "12" runs; 12.5 → "12m 30s" for minutes. */
export function formatMetric(metric: AlertMetric, value: number | null): string {
  if (value === null) return "no data";
  const unit = ALERT_METRIC_TABLE[metric].unit;
  if (unit === "minutes") return formatDuration(value * 60_000);
  return unit === "percent" ? `${fixed(value, 1)}%` : formatCount(value);
}

/** "the last 4 Thursdays" for a day, "the last 4 weeks" for a week, else "the 4 windows before". */
function baselineWindows(period: Period): string {
  const days = periodDays(period);
  if (days === 1) return `the last 4 ${WEEKDAYS[weekdayOf(period.start) - 1]}`;
  if (days === 7) return "the last 4 weeks";
  if (days < 7) return "the same days of the last 4 weeks";
  return "the 4 windows before";
}

/** "median of the last 4 Thursdays", "median of 3 of the last 4 Thursdays". */
export function normalLabel(period: Period, normal: Normal): string {
  const of = normal.windows < 4 ? `${normal.windows} of ` : "";
  return `median of ${of}${baselineWindows(period)}`;
}

/** "fewer than 3 of the last 4 Thursdays with 200 results". */
export function noNormalReason(period: Period, minTests: number): string {
  return `fewer than ${MIN_BASELINE_WINDOWS} of ${baselineWindows(period)} with ${formatCount(minTests)} results`;
}

/**
 * How far a value sits from its normal, towards `side`, as shown: "1.6 pp" for rates, "25%"
 * of the normal for counts and durations.
 */
function distanceText(metric: AlertMetric, value: number, normal: number): string {
  if (isRate(metric)) {
    const shown = (v: number) => Number(v.toFixed(1));
    return `${Math.abs(shown(value) - shown(normal)).toFixed(1)} pp`;
  }
  if (normal === 0) return formatMetric(metric, Math.abs(value));
  return `${Math.round((100 * Math.abs(value - normal)) / normal)}%`;
}

/** An offset as written: "+1 pp", "+20%", "−2 runs", "+3 minutes". */
export function offsetText(metric: AlertMetric, against: AlertBaseline, offset: number): string {
  const sign = offset < 0 ? "\u2212" : "+";
  const size = Number(Math.abs(offset).toFixed(2));
  if (against.by === "percent") return `${sign} ${size}%`;
  const unit = { percent: "pp", count: "runs", minutes: "min" }[ALERT_METRIC_TABLE[metric].unit];
  return `${sign} ${size} ${unit}`;
}

/** "1.6 pp above its normal 0.8% (median of the last 4 Thursdays)". */
export function fromNormalText(
  metric: AlertMetric,
  value: number,
  normal: Normal,
  period: Period,
): string {
  const distance = distanceText(metric, value, normal.value);
  // A distance that shows as nothing reads as "at", never "0.0 pp below".
  const nothing = /^[0.]+( pp|%)$/.test(distance);
  const where = nothing ? "at" : `${distance} ${value > normal.value ? "above" : "below"}`;
  return `${where} its normal ${formatMetric(metric, normal.value)} (${normalLabel(period, normal)})`;
}
