import { ALERT_METRIC_TABLE, type AlertMetric, isRate, lowIsBad } from "../alerts/alert-metrics.js";
import type { ConfigIssue } from "../errors.js";
import { asText, type Loose } from "./loose-access.js";
import { DEFAULT_ALERT_METRIC, RELATIVE_THRESHOLD } from "./schema.js";

// An alert's thresholds beyond their schema: in the metric's direction, rates within 0–100,
// and relative ones ("+1", "+20%", "-2") only `against` a baseline, signed towards the bad
// side, all three written the same way so that they can be ordered.

/** A threshold as written: a number (absolute), or a signed offset in points or percent. */
export interface WrittenThreshold {
  value: number;
  relative: "points" | "percent" | null;
}

/** A threshold's value as configured; undefined when it is neither form (the schema says so). */
export function readThreshold(raw: unknown): WrittenThreshold | undefined {
  if (typeof raw === "number" && Number.isFinite(raw)) return { value: raw, relative: null };
  const text = asText(raw);
  if (text === undefined || !RELATIVE_THRESHOLD.test(text)) return undefined;
  const percent = text.endsWith("%");
  return {
    value: Number(percent ? text.slice(0, -1) : text),
    relative: percent ? "percent" : "points",
  };
}

const NAMES = ["warn_at", "critical_at", "clear_at"] as const;
type ThresholdName = (typeof NAMES)[number];

/**
 * Thresholds ordered in the metric's direction — high-bad: clear_at < warn_at ≤ critical_at;
 * low-bad: clear_at > warn_at ≥ critical_at — rates within 0–100, and relative ones rightly
 * signed and written alike, with `against`.
 */
export function checkThresholds(alert: Loose, path: string): ConfigIssue[] {
  const given = asText(alert.metric) ?? DEFAULT_ALERT_METRIC;
  // An unknown metric is the schema's to report; its thresholds are judged as the default's.
  const metric = given in ALERT_METRIC_TABLE ? (given as AlertMetric) : DEFAULT_ALERT_METRIC;
  const written = Object.fromEntries(NAMES.map((n) => [n, readThreshold(alert[n])])) as Record<
    ThresholdName,
    WrittenThreshold | undefined
  >;
  const against = asText(alert.against);
  const relative = NAMES.filter((n) => written[n]?.relative);
  if (against === undefined && relative.length > 0) {
    const name = relative[0] as ThresholdName;
    return [
      {
        path: `${path}.${name}`,
        message: `${show(alert[name])} is relative to the project's normal — add against: median_of_4_weeks, or write an absolute threshold such as ${lowIsBad(metric) ? 90 : 3}`,
      },
    ];
  }
  if (against !== undefined) return checkRelative(alert, path, metric, against, written);
  return [...checkPercents(path, metric, written), ...checkOrder(alert, path, metric, written)];
}

function checkRelative(
  alert: Loose,
  path: string,
  metric: AlertMetric,
  against: string,
  written: Record<ThresholdName, WrittenThreshold | undefined>,
): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const low = lowIsBad(metric);
  const badSign = low ? "-" : "+";
  for (const name of NAMES) {
    const w = written[name];
    if (w === undefined) continue;
    if (w.relative === null) {
      issues.push({
        path: `${path}.${name}`,
        message: `with against: ${against}, thresholds are offsets from the normal — write "${badSign}${w.value}" (quoted, with its sign), or remove against`,
      });
      continue;
    }
    // clear_at may sit on either side of the normal; warn and critical lie on the bad side.
    const wrongSide = low ? w.value >= 0 : w.value <= 0;
    if (name !== "clear_at" && wrongSide) {
      const level = name === "warn_at" ? "warn" : "be critical";
      const side = low ? "above" : "below";
      const fix = `${badSign}${Math.abs(w.value) || 1}${w.relative === "percent" ? "%" : ""}`;
      issues.push({
        path: `${path}.${name}`,
        message: `${show(alert[name])} would ${level} ${w.value === 0 ? "at" : side} the normal, but ${metric} is bad when ${low ? "low" : "high"} — write "${fix}"`,
      });
    }
  }
  if (issues.length > 0) return issues;
  const kinds = NAMES.flatMap((n) => {
    const w = written[n];
    return w ? [{ name: n, w }] : [];
  });
  const first = kinds[0];
  if (!first) return [];
  for (const { name, w } of kinds) {
    if (w.relative === first.w.relative) continue;
    const what = (r: WrittenThreshold["relative"]) =>
      r === "percent" ? "a percent of the normal" : `in ${unitWord(metric)}`;
    return [
      {
        path: `${path}.${name}`,
        message: `${show(alert[name])} is ${what(w.relative)}, but ${first.name} ${show(alert[first.name])} is ${what(first.w.relative)} — write every threshold of this alert the same way`,
      },
    ];
  }
  return checkOrder(alert, path, metric, written);
}

/** pp for rates, minutes for the duration, runs for the runs count. */
function unitWord(metric: AlertMetric): string {
  return { percent: "pp", count: "runs", minutes: "minutes" }[ALERT_METRIC_TABLE[metric].unit];
}

function checkPercents(
  path: string,
  metric: AlertMetric,
  written: Record<ThresholdName, WrittenThreshold | undefined>,
): ConfigIssue[] {
  if (!isRate(metric)) return [];
  return NAMES.flatMap((name) => {
    const value = written[name]?.value;
    return value !== undefined && value > 100
      ? [
          {
            path: `${path}.${name}`,
            message: `${value} is not a percent — ${metric} thresholds lie between 0 and 100`,
          },
        ]
      : [];
  });
}

function checkOrder(
  alert: Loose,
  path: string,
  metric: AlertMetric,
  written: Record<ThresholdName, WrittenThreshold | undefined>,
): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const warn = written.warn_at?.value;
  const critical = written.critical_at?.value;
  const clear = written.clear_at?.value;
  const low = lowIsBad(metric);
  const order = low
    ? `${metric} is bad when low, so thresholds must satisfy clear_at > warn_at ≥ critical_at`
    : `${metric} is bad when high, so thresholds must satisfy clear_at < warn_at ≤ critical_at`;
  if (clear !== undefined && warn !== undefined && (low ? clear <= warn : clear >= warn)) {
    issues.push({
      path: `${path}.clear_at`,
      message: `${show(alert.clear_at)} must be ${low ? "above" : "below"} warn_at (${show(alert.warn_at)}): a firing alert resolves only past clear_at, on the good side — ${order}`,
    });
  }
  if (warn !== undefined && critical !== undefined && (low ? warn < critical : warn > critical)) {
    issues.push({
      path: `${path}.warn_at`,
      message: `${show(alert.warn_at)} must not be ${low ? "below" : "above"} critical_at (${show(alert.critical_at)}) — ${order}`,
    });
  }
  return issues;
}

/** A threshold as written: 3, or "+1" quoted. */
function show(raw: unknown): string {
  return typeof raw === "string" ? `"${raw}"` : String(raw);
}
