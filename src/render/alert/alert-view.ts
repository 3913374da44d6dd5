import { isRate, lowIsBad, metricName } from "../../alerts/alert-metrics.js";
import type {
  AlertMetric,
  AlertStateName,
  Transition,
  TransitionKind,
} from "../../alerts/types.js";
import type { Period } from "../../periods/types.js";
import { formatCount, formatPp, sparkline } from "../format.js";

// What every alert renderer (Slack, mail, terminal) shows, decided once: the words, marks and
// figures of a transition, so the channel, the inbox and `preview` never disagree.

/** An evaluation's message, as the renderers take it. */
export interface AlertMessageInput {
  key: string;
  team: { name: string; title: string; timezone: string };
  alert: {
    name: string;
    metric: AlertMetric;
    warnAt: number;
    criticalAt: number;
    clearAt: number;
    confidence: number | null;
  };
  period: Period;
  transitions: readonly Transition[];
  /** Who to ping; only used when something fired or escalated. */
  mention: string | null;
  mentionDue: boolean;
}

/** A fire's first message as it should read now: every scope it announced, with its state. */
export interface RootView {
  rootKey: string;
  scopes: { name: string; state: AlertStateName; value: number | null; firedAt: string | null }[];
  /** When the last of them resolved (ISO), when none fires any more. */
  resolvedAt: string | null;
}

export const STATE_MARK: Record<AlertStateName, string> = {
  critical: "\u{1F534}",
  warn: "\u{1F7E0}",
  pending: "\u{1F7E1}",
  ok: "\u{1F7E2}",
  no_data: "\u26AA",
};

export const KIND_TITLE: Record<TransitionKind, string> = {
  fired: "Fired",
  escalated: "Escalated",
  "de-escalated": "De-escalated",
  resolved: "Resolved",
  reminder: "Still firing",
};

/** 4.2 → "4.2%" for rates; 12 → "12" runs. */
export function formatMetric(metric: AlertMetric, value: number | null): string {
  if (value === null) return "no data";
  return isRate(metric) ? `${value.toFixed(1)}%` : formatCount(value);
}

/** The value with its interval: "6.2% (5.8–6.6%)". */
export function valueWithInterval(metric: AlertMetric, t: Transition): string {
  const value = formatMetric(metric, t.sample.value);
  const i = t.sample.interval;
  return i ? `${value} (${i.low.toFixed(1)}\u2013${i.high.toFixed(1)}%)` : value;
}

/** "≥ critical 5.0%", "< clear 2.5%", in the metric's direction. */
export function thresholdText(input: AlertMessageInput, t: Transition): string {
  const low = lowIsBad(input.alert.metric);
  const bad = low ? "\u2264" : "\u2265";
  const good = low ? ">" : "<";
  const value = formatMetric(input.alert.metric, t.threshold);
  if (t.kind === "resolved") return `${good} clear ${value}`;
  return `${bad} ${t.to === "critical" ? "critical" : "warn"} ${value}`;
}

/** "+1.4 pp vs prior window", "−12 runs vs prior window", or "" without a prior. */
export function changeText(metric: AlertMetric, t: Transition): string {
  const { value, prior } = t.sample;
  if (value === null || prior === null) return "";
  const diff = value - prior;
  const change = isRate(metric)
    ? formatPp(diff)
    : `${diff >= 0 ? "+" : "\u2212"}${formatCount(Math.abs(diff))}`;
  return `${change} vs prior window`;
}

/** The pieces of one transition's line, plain text (escape before mrkdwn or HTML). */
export function transitionParts(input: AlertMessageInput, t: Transition, now: string): string[] {
  const { metric } = input.alert;
  const sizeWord = isRate(metric) ? ` ${t.sample.size === 1 ? "result" : "results"}` : "";
  const spark = sparkline(t.sample.daily);
  const parts = [
    `${metricName(metric)} ${valueWithInterval(metric, t)} ${thresholdText(input, t)}`,
    isRate(metric) ? `${formatCount(t.sample.size)}${sizeWord}` : "",
    t.sample.daily.length > 1 ? spark : "",
    changeText(metric, t),
    t.kind === "resolved" && t.firedAt ? `fired for ${formatSpan(t.firedAt, now)}` : "",
  ];
  return parts.filter((p) => p !== "");
}

/** 90 000 000 ms → "1d 1h"; under an hour → "45m". */
export function formatSpan(fromIso: string, toIso: string): string {
  const minutes = Math.max(0, Math.round((Date.parse(toIso) - Date.parse(fromIso)) / 60_000));
  const d = Math.floor(minutes / 1440);
  const h = Math.floor((minutes % 1440) / 60);
  if (d > 0) return h > 0 ? `${d}d ${h}h` : `${d}d`;
  if (h > 0) return `${h}h ${minutes % 60}m`;
  return `${minutes}m`;
}

/** The worst state among transitions' targets, for the message's colour and title. */
export function worstOf(states: readonly AlertStateName[]): AlertStateName {
  for (const s of ["critical", "warn", "pending", "no_data"] as const)
    if (states.includes(s)) return s;
  return "ok";
}

/** "the thresholds: warn ≥ 3.0%, critical ≥ 5.0%, clears < 2.5%, 95% Wilson interval". */
export function ruleText(input: AlertMessageInput): string {
  const { metric, warnAt, criticalAt, clearAt, confidence } = input.alert;
  const low = lowIsBad(metric);
  const [bad, good] = low ? ["\u2264", ">"] : ["\u2265", "<"];
  const f = (v: number) => formatMetric(metric, v);
  const interval =
    confidence === null || !isRate(metric)
      ? "raw value"
      : `${Math.round(confidence * 100)}% Wilson interval`;
  return `${metricName(metric)}: warn ${bad} ${f(warnAt)}, critical ${bad} ${f(criticalAt)}, clears ${good} ${f(clearAt)} \u00b7 ${interval}`;
}
