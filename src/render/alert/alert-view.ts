import { ALERT_METRIC_TABLE, isRate, lowIsBad, metricName } from "../../alerts/alert-metrics.js";
import type { FireHistory } from "../../alerts/fire-history.js";
import { TEAM_SCOPE } from "../../alerts/scope-windows.js";
import type {
  AlertBaseline,
  AlertMetric,
  AlertStateName,
  EarlierFire,
  Transition,
  TransitionKind,
} from "../../alerts/types.js";
import type { Period } from "../../periods/types.js";
import {
  fixed,
  formatCount,
  formatDuration,
  formatPeriod,
  formatPp,
  roundTo,
  sparkline,
} from "../format.js";
import { linksPerProject, projectDashboardUrl } from "../project-links.js";
import { truncateText } from "../truncate-text.js";
import {
  formatMetric,
  fromNormalText,
  noNormalReason,
  normalLabel,
  offsetText,
} from "./normal-words.js";

export { formatMetric } from "./normal-words.js";

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
    /** Thresholds relative to each scope's normal; null or absent: absolute. */
    against?: AlertBaseline | null;
    /** Results a baseline window needs (for the words of a baseline too thin). */
    minTests?: number;
  };
  period: Period;
  transitions: readonly Transition[];
  /** Who to ping; only used when something fired or escalated. */
  mention: string | null;
  mentionDue: boolean;
  /** What the ledger remembers of each resolving scope's fire, by scope. */
  history?: Readonly<Record<string, FireHistory>>;
  /** The project's dashboard, with {project_id}; null: no link. */
  dashboardUrl?: string | null;
  /**
   * Who owns each project, by project id: Slack user/group ids and email addresses, pinged
   * (Slack) and copied (mail) when an alert fires or escalates on the project.
   */
  owners?: Readonly<Record<string, readonly string[]>>;
  /** Acknowledge and Snooze on a firing alert's Slack messages (default: none). */
  buttons?: boolean;
}

export type { FireHistory } from "../../alerts/fire-history.js";

/** A fire's first message as it should read now: every scope it announced, with its state. */
export interface RootView {
  rootKey: string;
  scopes: {
    scope: string;
    name: string;
    state: AlertStateName;
    value: number | null;
    firedAt: string | null;
  }[];
  /** When the last of them resolved (ISO), when none fires any more. */
  resolvedAt: string | null;
  /** Who acknowledged the fire and when; null or absent when no one has (or an escalation cleared it). */
  acknowledged?: Acknowledged | null;
  /** The snooze that holds on the fire now; null or absent when none does. */
  snoozed?: Snoozed | null;
  /** The incident the fire is a member of, which its first message names; null or absent: none. */
  incident?: IncidentRef | null;
}

/** An incident as a member's first message names it: its key, and the channel it is posted in. */
export interface IncidentRef {
  key: string;
  channel: string | null;
}

/** An acknowledgement as a message shows it: a Slack user id and an ISO instant. */
export interface Acknowledged {
  by: string;
  at: string;
}

/** A snooze as the first message shows it: who, until when (ISO), and the silences *End snooze* ends. */
export interface Snoozed {
  by: string;
  until: string;
  silenceIds: readonly number[];
}

/** A scope of a fire's first message, with what the words of its end need. */
export type RootScope = RootView["scopes"][number];

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

/**
 * The owners a transition calls on: those of its project when it fired or escalated there;
 * none for the team total, a de-escalation, a resolution or a reminder.
 */
export function transitionOwners(input: AlertMessageInput, t: Transition): readonly string[] {
  if (t.kind !== "fired" && t.kind !== "escalated") return [];
  if (t.scope === TEAM_SCOPE) return [];
  return input.owners?.[t.scope] ?? [];
}

/** The owners' email addresses of every project that fired or escalated, each once. */
export function alertOwnersCc(input: AlertMessageInput): string[] {
  const cc = new Set<string>();
  for (const t of input.transitions)
    for (const owner of transitionOwners(input, t)) if (owner.includes("@")) cc.add(owner);
  return [...cc];
}

/**
 * The dashboard of a scope, as digests link it: a project's page when the template names
 * `{project_id}`; null for the team, or without a dashboard.
 */
export function scopeDashboardUrl(input: AlertMessageInput, scope: string): string | null {
  const template = input.dashboardUrl ?? null;
  if (template === null || scope === "team" || !linksPerProject(template)) return null;
  return projectDashboardUrl(template, scope);
}

/** The one dashboard of a template without `{project_id}`, linked once per message; else null. */
export function teamDashboardUrl(input: AlertMessageInput): string | null {
  const template = input.dashboardUrl ?? null;
  return template !== null && !linksPerProject(template) ? template : null;
}

/** A threshold as configured: 6 → "6%", 2.5 → "2.5%"; 20 → "20" runs; 15 → "15m 00s". */
export function formatThreshold(metric: AlertMetric, value: number): string {
  if (ALERT_METRIC_TABLE[metric].unit === "minutes") return formatDuration(value * 60_000);
  return isRate(metric) ? `${roundTo(value, 2)}%` : formatCount(value);
}

/** "Nov 21", "Nov 16 – 22": a window within the alert's own weeks needs no year. */
export function shortPeriod(period: Period): string {
  return formatPeriod(period).replace(/, \d{4}/g, "");
}

/** 3 days and 2 hours → "3 days"; under a day "5 hours"; under an hour "45 minutes". */
function spanWords(fromIso: string, toIso: string): string {
  const minutes = Math.max(0, Math.round((Date.parse(toIso) - Date.parse(fromIso)) / 60_000));
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  if (minutes >= 1440) return unit(Math.round(minutes / 1440), "day");
  if (minutes >= 60) return unit(Math.round(minutes / 60), "hour");
  return unit(minutes, "minute");
}

/**
 * A transition in words, as people read it without a manual: "Checkout flows flaky rate 9.0%
 * — above critical 6%"; "Checkout flows flaky rate back under 2% — resolved after 3 days (peak
 * 9.5% on Nov 11)". Plain text: escape before mrkdwn or HTML.
 */
export function transitionSentence(input: AlertMessageInput, t: Transition, now: string): string {
  const sentence = input.alert.against
    ? relativeSentence(input, input.alert.against, t, now)
    : absoluteSentence(input, t, now);
  return `${sentence}${regressedText(t)}`;
}

/**
 * " — regressed: it fired Nov 10 and resolved Nov 12" for a fire within 7 days of the scope's
 * last resolution; "" otherwise.
 */
function regressedText(t: Transition): string {
  const earlier = t.kind === "fired" ? t.regressed : undefined;
  if (!earlier) return "";
  return ` \u2014 regressed: ${earlierFireWords(earlier)} and resolved ${shortPeriod(earlier.resolvedIn)}`;
}

/** "it fired Nov 10": the words of `regressedText` that name the earlier fire (a link's text). */
export function earlierFireWords(earlier: EarlierFire): string {
  return `it fired ${shortPeriod(earlier.firedIn)}`;
}

function absoluteSentence(input: AlertMessageInput, t: Transition, now: string): string {
  const { metric, warnAt, criticalAt, clearAt } = input.alert;
  const [bad, good] = lowIsBad(metric) ? ["below", "above"] : ["above", "under"];
  const subject = `${t.name} ${metricName(metric)}`;
  const value = formatMetric(metric, t.sample.value);
  const limit = (level: "warn" | "critical") =>
    `${level} ${formatThreshold(metric, level === "critical" ? criticalAt : warnAt)}`;
  const level = t.to === "critical" ? "critical" : "warn";
  switch (t.kind) {
    case "fired":
    case "escalated":
      if (t.sample.value === null)
        return `${subject}: ${t.missing ?? "no data"} — counted as ${level}`;
      return t.from === "new"
        ? `${subject} ${value} — ${bad} ${limit(level)}, ${firstCheckWords(t.to, input.period)}`
        : `${subject} ${value} — ${bad} ${limit(level)}`;
    case "reminder":
      return `${subject} ${value} — still ${bad} ${limit(level)}${t.firedAt ? `, firing for ${spanWords(t.firedAt, now)}` : ""}`;
    case "de-escalated":
      return `${subject} ${value} — back ${good} ${limit("critical")}, still ${bad} ${limit("warn")}`;
    case "resolved": {
      const back =
        t.sample.value === null
          ? `${subject}: ${t.missing ?? "no data"} — resolved`
          : `${subject} back ${good} ${formatThreshold(metric, clearAt)} — resolved`;
      return `${back}${resolvedAfter(input, t.scope, t.firedAt, now)}`;
    }
  }
}

/**
 * "critical since at least Nov 21 (first check of this alert)": what a first evaluation saw,
 * dated from the first day of the data it looked at, since nothing says when it began.
 */
export function firstCheckWords(state: AlertStateName, window: Period): string {
  return `${state} since at least ${shortPeriod({ start: window.start, end: window.start })} (first check of this alert)`;
}

/**
 * A transition of an alert against the scope's normal, with both numbers: "Search API flaky
 * rate 2.4% — 1.6 pp above its normal 0.8% (median of the last 4 Thursdays)".
 */
function relativeSentence(
  input: AlertMessageInput,
  against: AlertBaseline,
  t: Transition,
  now: string,
): string {
  const { metric } = input.alert;
  const subject = `${t.name} ${metricName(metric)}`;
  const value = t.sample.value;
  const normal = t.sample.normal ?? null;
  const level = t.to === "critical" ? "critical" : "warn";
  if (t.kind === "resolved") {
    if (value === null || normal === null)
      return `${subject}: ${t.missing ?? (value === null ? "no data" : "no normal")} — resolved${resolvedAfter(input, t.scope, t.firedAt, now)}`;
    const good = lowIsBad(metric) ? "above" : "under";
    const clear = offsetText(metric, against, input.alert.clearAt);
    return `${subject} back ${good} ${formatThreshold(metric, t.threshold)} (its normal ${formatMetric(metric, normal.value)} ${clear}) — resolved${resolvedAfter(input, t.scope, t.firedAt, now)}`;
  }
  if (value === null) return `${subject}: ${t.missing ?? "no data"} — counted as ${level}`;
  if (normal === null) {
    const reason = noNormalReason(input.period, input.alert.minTests ?? 0);
    return `${subject} ${formatMetric(metric, value)}: no normal (${reason}) — counted as ${level}`;
  }
  const from = fromNormalText(metric, value, normal, input.period);
  const head = `${subject} ${formatMetric(metric, value)} —`;
  switch (t.kind) {
    case "fired":
    case "escalated":
      return `${head} ${from}`;
    case "reminder":
      return `${head} still ${from}${t.firedAt ? `, firing for ${spanWords(t.firedAt, now)}` : ""}`;
    case "de-escalated":
      return `${head} ${from}, no longer critical`;
  }
}

/** " after 3 days (peak 9.5% on Nov 11)", from the fire's start and the ledger's history. */
export function resolvedAfter(
  input: Pick<AlertMessageInput, "alert" | "history">,
  scope: string,
  firedAt: string | null,
  now: string,
): string {
  const after = firedAt ? ` after ${spanWords(firedAt, now)}` : "";
  const peak = input.history?.[scope]?.peak;
  const peakText = peak
    ? ` (peak ${formatMetric(input.alert.metric, peak.value)} on ${shortPeriod(peak.period)})`
    : "";
  return `${after}${peakText}`;
}

/** The value with its interval: "6.2% (5.8–6.6%)". */
function valueWithInterval(metric: AlertMetric, t: Transition): string {
  const value = formatMetric(metric, t.sample.value);
  const i = t.sample.interval;
  return i ? `${value} (${fixed(i.low, 1)}\u2013${fixed(i.high, 1)}%)` : value;
}

/** "+1.4 pp vs prior window", "−12 runs vs prior window", or "" without a prior. */
function changeText(metric: AlertMetric, t: Transition): string {
  const { value, prior } = t.sample;
  if (value === null || prior === null) return "";
  const diff = value - prior;
  const sign = diff >= 0 ? "+" : "\u2212";
  const change = isRate(metric)
    ? formatPp(diff)
    : ALERT_METRIC_TABLE[metric].unit === "minutes"
      ? `${sign}${formatDuration(Math.abs(diff) * 60_000)}`
      : `${sign}${formatCount(Math.abs(diff))}`;
  return `${change} vs prior window`;
}

/**
 * What stands behind one transition's sentence, plain text (escape before mrkdwn or HTML): the
 * value where the sentence has none, its interval, the results, the days, the change.
 */
export function transitionParts(input: AlertMessageInput, t: Transition): string[] {
  const { metric } = input.alert;
  const sizeWord = isRate(metric) ? ` ${t.sample.size === 1 ? "result" : "results"}` : "";
  const i = t.sample.interval;
  const parts = [
    t.kind === "resolved" && t.sample.value !== null
      ? `now ${valueWithInterval(metric, t)}`
      : i
        ? `interval ${fixed(i.low, 1)}\u2013${fixed(i.high, 1)}%`
        : "",
    isRate(metric) ? `${formatCount(t.sample.size)}${sizeWord}` : "",
    t.sample.daily.length > 1 ? sparkline(t.sample.daily) : "",
    changeText(metric, t),
  ];
  return parts.filter((p) => p !== "");
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
  const against = input.alert.against;
  if (against) {
    const o = (v: number) => `normal ${offsetText(metric, against, v)}`;
    const label = normalLabel(input.period, { value: 0, windows: 4 });
    return `${metricName(metric)}: warn ${bad} ${o(warnAt)}, critical ${bad} ${o(criticalAt)}, clears ${good} ${o(clearAt)} (${label}) · ${interval}`;
  }
  return `${metricName(metric)}: warn ${bad} ${f(warnAt)}, critical ${bad} ${f(criticalAt)}, clears ${good} ${f(clearAt)} \u00b7 ${interval}`;
}

// Names are cut before anything else, so a team title or project name of any length leaves room
// for the verdict and its value.
const NAME_CHARS = 80;
const TITLE_CHARS = 80;
const ALERT_CHARS = 60;
const HEADLINE_CHARS = 300;

/**
 * The notification line, in words: "Checkout squad · flaky-rate: Checkout API flaky rate 6.2% —
 * above critical 5%; …". Plain text: escape before mrkdwn or HTML. Names are cut and whole
 * sentences left out ("; and 2 more"), so the first verdict and its value are always there.
 */
export function headlineText(input: AlertMessageInput, now: string): string {
  const sentences = input.transitions.map((t) => {
    const rest = transitionSentence(input, t, now).slice(t.name.length);
    return `${truncateText(t.name, NAME_CHARS)}${rest}`;
  });
  let text = `${titleOf(input)}: ${sentences[0] ?? ""}`;
  for (let i = 1; i < sentences.length; i += 1) {
    const next = `${text}; ${sentences[i]}`;
    const left = sentences.length - i - 1;
    if (next.length + (left > 0 ? `; and ${left} more`.length : 0) > HEADLINE_CHARS)
      return `${text}; and ${sentences.length - i} more`;
    text = next;
  }
  return text;
}

/** "Checkout squad · flaky-rate", each name cut so that a long one cannot crowd out the verdict. */
export function titleOf(input: AlertMessageInput): string {
  return `${truncateText(input.team.title, TITLE_CHARS)} \u00b7 ${truncateText(input.alert.name, ALERT_CHARS)}`;
}
