import { metricName } from "../../alerts/alert-metrics.js";
import type { Transition, TransitionKind } from "../../alerts/types.js";
import type { SlackBlock, SlackMessage, SlackMetadata, SlackPost } from "../../messages.js";
import { formatPeriod } from "../format.js";
import { escapeMrkdwn } from "../slack/escape-mrkdwn.js";
import { truncateText } from "../slack/slack-limits.js";
import {
  type AlertMessageInput,
  formatMetric,
  formatSpan,
  KIND_TITLE,
  type RootView,
  ruleText,
  STATE_MARK,
  transitionParts,
  worstOf,
} from "./alert-view.js";

// An alert evaluation as Slack Block Kit: one message grouping its transitions (fired first),
// the mention only when something fired or escalated, and the edited first message of a fire
// that shows its state now — green once resolved, so no one reacts to an alert that is over.

const LINES_PER_SECTION = 10;
const MAX_SECTIONS = 40;
const SECTION_CHARS = 2_900;
const NAME_CHARS = 80;

/** The evaluation's message: a new post (a fire) or a reply in the fire's thread. */
export function renderSlackAlert(input: AlertMessageInput, now: string): SlackPost {
  const worst = worstOf(input.transitions.map((t) => t.to));
  const headline = headlineText(input);
  const mention = input.mentionDue && input.mention ? `${input.mention} ` : "";
  const blocks: SlackBlock[] = [
    section(
      `${mention}${STATE_MARK[worst]} *${escapeMrkdwn(titleOf(input))}* \u00b7 ${escapeMrkdwn(summaryOf(input.transitions))}`,
    ),
    context(`${escapeMrkdwn(ruleText(input))} \u00b7 window ${formatPeriod(input.period)}`),
  ];
  for (const kind of [
    "fired",
    "escalated",
    "de-escalated",
    "resolved",
    "reminder",
  ] as TransitionKind[]) {
    const lines = input.transitions
      .filter((t) => t.kind === kind)
      .map((t) => transitionLine(input, t, now));
    for (let i = 0; i < lines.length && blocks.length < MAX_SECTIONS; i += LINES_PER_SECTION) {
      const title = i === 0 ? `*${KIND_TITLE[kind]}*\n` : "";
      blocks.push(
        section(
          truncateText(
            `${title}${lines.slice(i, i + LINES_PER_SECTION).join("\n")}`,
            SECTION_CHARS,
          ),
        ),
      );
    }
  }
  return {
    main: { text: `${mention}${headline}`, blocks },
    metadata: alertMetadata(input),
    thread: [],
  };
}

/** The fire's first message as it should read now (for chat.update). */
export function renderSlackAlertRoot(input: AlertMessageInput, root: RootView): SlackMessage {
  const states = root.scopes.map((s) => s.state);
  const worst = worstOf(states);
  const title = escapeMrkdwn(titleOf(input));
  const lines = root.scopes.map((s) => {
    const name = escapeMrkdwn(truncateText(s.name, NAME_CHARS));
    const value = formatMetric(input.alert.metric, s.value);
    const span =
      s.firedAt && root.resolvedAt
        ? ` \u00b7 fired for ${formatSpan(s.firedAt, root.resolvedAt)}`
        : "";
    return `${STATE_MARK[s.state]} *${name}* ${s.state === "no_data" ? "no data" : s.state} \u00b7 ${metricName(input.alert.metric)} ${value}${span}`;
  });
  const status = root.resolvedAt
    ? `${STATE_MARK.ok} *Resolved* \u00b7 ${title}`
    : `${STATE_MARK[worst]} *${worst === "critical" ? "Critical" : "Warning"}, still firing* \u00b7 ${title}`;
  const text = root.resolvedAt
    ? `Resolved: ${titleOf(input)}`
    : `Still firing (${worst}): ${titleOf(input)}`;
  return {
    text,
    blocks: [
      section(`${status}\n${lines.join("\n")}`),
      context(
        `${escapeMrkdwn(ruleText(input))} \u00b7 updated for the window ${formatPeriod(input.period)}; the thread has every change`,
      ),
    ],
  };
}

/** `{event_type: "insights_alert", event_payload: {key, team, alert, period_*, transitions}}`. */
export function alertMetadata(input: AlertMessageInput): SlackMetadata {
  return {
    event_type: "insights_alert",
    event_payload: {
      key: input.key,
      team: input.team.name,
      alert: input.alert.name,
      period_start: input.period.start,
      period_end: input.period.end,
      transitions: input.transitions.map((t) => ({
        scope: t.scope,
        from: t.from,
        to: t.to,
        ...(t.sample.value === null ? {} : { value: Number(t.sample.value.toFixed(3)) }),
      })),
    },
  };
}

/** The notification line: "Checkout squad · flaky-rate: Checkout API fired critical 6.2%; …". */
export function headlineText(input: AlertMessageInput): string {
  const parts = input.transitions.map(
    (t) =>
      `${t.name} ${t.kind === "reminder" ? "still" : t.kind} ${t.to === "ok" || t.to === "no_data" ? "" : `${t.to} `}${formatMetric(input.alert.metric, t.sample.value)}`,
  );
  return truncateText(`${titleOf(input)}: ${parts.join("; ")}`, 300);
}

function titleOf(input: AlertMessageInput): string {
  return `${input.team.title} \u00b7 ${input.alert.name}`;
}

function summaryOf(transitions: readonly Transition[]): string {
  const counts = new Map<TransitionKind, number>();
  for (const t of transitions) counts.set(t.kind, (counts.get(t.kind) ?? 0) + 1);
  return [...counts].map(([kind, n]) => `${n} ${KIND_TITLE[kind].toLowerCase()}`).join(", ");
}

function transitionLine(input: AlertMessageInput, t: Transition, now: string): string {
  const name = escapeMrkdwn(truncateText(t.name, NAME_CHARS));
  const parts = transitionParts(input, t, now).map(escapeMrkdwn);
  const state = t.kind === "resolved" ? "" : ` ${t.to}`;
  return `${STATE_MARK[t.to]} *${name}*${state} \u00b7 ${parts.join(" \u00b7 ")}`;
}

const section = (text: string): SlackBlock => ({ type: "section", text: { type: "mrkdwn", text } });
const context = (text: string): SlackBlock => ({
  type: "context",
  elements: [{ type: "mrkdwn", text }],
});
