import { lowIsBad, metricName } from "../../../alerts/alert-metrics.js";
import type { Transition, TransitionKind } from "../../../alerts/types.js";
import type { SlackBlock, SlackMessage, SlackMetadata, SlackPost } from "../../../messages.js";
import {
  type AlertMessageInput,
  formatMetric,
  formatThreshold,
  headlineText,
  KIND_TITLE,
  type RootScope,
  type RootView,
  resolvedAfter,
  ruleText,
  STATE_MARK,
  scopeDashboardUrl,
  shortPeriod,
  teamDashboardUrl,
  titleOf,
  transitionOwners,
  transitionParts,
  transitionSentence,
  worstOf,
} from "../../../render/alert/alert-view.js";
import { offsetText } from "../../../render/alert/normal-words.js";
import { formatPeriod } from "../../../render/format.js";
import { truncateText } from "../../../render/truncate-text.js";
import { escapeMrkdwn } from "./escape-mrkdwn.js";
import { acknowledgedContext, alertActionsBlocks, snoozedContext } from "./slack-alert-actions.js";
import { SLACK_LIMITS } from "./slack-limits.js";
import { ownerMention } from "./slack-news.js";

// An alert evaluation as Slack Block Kit: one message grouping its transitions (fired first),
// the mention only when something fired or escalated (and then the project's owners on its line,
// each once), and the edited first message of a fire that shows its state now — green once resolved, so no one reacts to an alert that is over.

const LINES_PER_SECTION = 10;
const MAX_SECTIONS = 40;
const SECTION_CHARS = 2_900;
const NAME_CHARS = 80;

/** The evaluation's message: a new post (a fire) or a reply in the fire's thread. */
export function renderSlackAlert(input: AlertMessageInput, now: string): SlackPost {
  const worst = worstOf(input.transitions.map((t) => t.to));
  const headline = headlineText(input, now);
  const mention = input.mentionDue && input.mention ? `${input.mention} ` : "";
  const blocks: SlackBlock[] = [
    section(
      `${mention}${STATE_MARK[worst]} *${escapeMrkdwn(titleOf(input))}* \u00b7 ${escapeMrkdwn(summaryOf(input.transitions))}`,
    ),
    context(
      `${escapeMrkdwn(ruleText(input))} \u00b7 window ${formatPeriod(input.period)}${teamLink(input)}`,
    ),
  ];
  const mentioned = new Set<string>();
  for (const kind of [
    "fired",
    "escalated",
    "de-escalated",
    "resolved",
    "reminder",
  ] as TransitionKind[]) {
    const lines = input.transitions
      .filter((t) => t.kind === kind)
      .map((t) => transitionLine(input, t, now, mentioned));
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
  // A message that announces a fire is that fire's first message: it carries its buttons.
  if (input.buttons && input.transitions.some((t) => t.kind === "fired")) {
    blocks.push(...alertActionsBlocks(input.key));
  }
  return {
    main: { text: `${mention}${escapeMrkdwn(headline)}`, blocks },
    metadata: alertMetadata(input),
    thread: [],
  };
}

/** The fire's first message as it should read now (for chat.update). */
export function renderSlackAlertRoot(
  input: AlertMessageInput,
  root: RootView,
  now: string,
): SlackMessage {
  const states = root.scopes.map((s) => s.state);
  const worst = worstOf(states);
  const title = escapeMrkdwn(titleOf(input));
  const lines = root.scopes.map((s) => rootLine(input, s, now));
  const status = root.resolvedAt
    ? `${STATE_MARK.ok} *Resolved* \u00b7 ${title}`
    : `${STATE_MARK[worst]} *${worst === "critical" ? "Critical" : "Warning"}, still firing* \u00b7 ${title}`;
  const text = root.resolvedAt ? `Resolved: ${title}` : `Still firing (${worst}): ${title}`;
  return {
    text,
    blocks: [
      section(`${status}\n${lines.join("\n")}`),
      context(
        `${escapeMrkdwn(ruleText(input))} \u00b7 updated for the window ${formatPeriod(input.period)}; the thread has every change${teamLink(input)}`,
      ),
      // While it fires: who acknowledged it, its snooze, and the buttons; a resolved alert has none.
      ...(root.resolvedAt === null && root.acknowledged
        ? [acknowledgedContext(root.acknowledged, input.team.timezone)]
        : []),
      ...(root.resolvedAt === null && root.snoozed
        ? [snoozedContext(root.snoozed, input.team.timezone)]
        : []),
      ...(root.resolvedAt === null && input.buttons
        ? alertActionsBlocks(root.rootKey, root.snoozed ?? null)
        : []),
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

/**
 * One scope of a fire's first message as it stands now: still firing, with the day it fired;
 * or resolved, keeping the peak and the dates, so the edited message still tells the story.
 */
function rootLine(input: AlertMessageInput, s: RootScope, now: string): string {
  const { metric } = input.alert;
  const name = `*${linked(s.name, scopeDashboardUrl(input, s.scope))}* ${metricName(metric)}`;
  const firedIn = input.history?.[s.scope]?.firedIn;
  const since = firedIn ? ` \u00b7 fired ${shortPeriod(firedIn)}` : "";
  if (s.state === "warn" || s.state === "critical") {
    const [bad] = lowIsBad(metric) ? ["below"] : ["above"];
    const level = s.state === "critical" ? input.alert.criticalAt : input.alert.warnAt;
    // A relative threshold differs by scope: its offset from the normal, as configured.
    const against = input.alert.against;
    const limit = against
      ? `(normal ${offsetText(metric, against, level)})`
      : formatThreshold(metric, level);
    return `${STATE_MARK[s.state]} ${name} ${formatMetric(metric, s.value)} \u2014 ${bad} ${s.state} ${limit}${since}`;
  }
  const good = lowIsBad(metric) ? "above" : "under";
  const back =
    s.value === null
      ? ": no data"
      : ` back ${good} ${
          input.alert.against
            ? `normal ${offsetText(metric, input.alert.against, input.alert.clearAt)}`
            : formatThreshold(metric, input.alert.clearAt)
        }`;
  const dates = firedIn ? `${since}, resolved ${shortPeriod(input.period)}` : "";
  return `${STATE_MARK.ok} ${name}${escapeMrkdwn(back)} \u2014 resolved${escapeMrkdwn(resolvedAfter(input, s.scope, s.firedAt, now))}${dates}`;
}

function summaryOf(transitions: readonly Transition[]): string {
  const counts = new Map<TransitionKind, number>();
  for (const t of transitions) counts.set(t.kind, (counts.get(t.kind) ?? 0) + 1);
  return [...counts].map(([kind, n]) => `${n} ${KIND_TITLE[kind].toLowerCase()}`).join(", ");
}

function transitionLine(
  input: AlertMessageInput,
  t: Transition,
  now: string,
  mentioned: Set<string>,
): string {
  const name = linked(t.name, scopeDashboardUrl(input, t.scope));
  // The sentence starts with the scope's name: bold there, the rest as written.
  const rest = escapeMrkdwn(transitionSentence(input, t, now).slice(t.name.length));
  const parts = [...transitionParts(input, t).map(escapeMrkdwn), ...afterSilence(t)];
  const line = [`${STATE_MARK[t.to]} *${name}*${rest}`, ...parts].join(" \u00b7 ");
  const owners = transitionOwners(input, t).filter(
    (o) => ownerMention(o) !== "" && !mentioned.has(o),
  );
  for (const owner of owners) mentioned.add(owner);
  return owners.length === 0 ? line : `${line} ${owners.map(ownerMention).join(" ")}`;
}

/** Why a reminder is posted now: "snooze ended by <@U…>" (or `cli:ana`), or "snooze ran out". */
function afterSilence(t: Transition): string[] {
  if (!t.afterSilence) return [];
  const by = t.afterSilence.endedBy;
  if (by === null) return ["snooze ran out"];
  return [`snooze ended by ${/^[UW][A-Z0-9]+$/.test(by) ? `<@${by}>` : escapeMrkdwn(by)}`];
}

const section = (text: string): SlackBlock => ({ type: "section", text: { type: "mrkdwn", text } });
const context = (text: string): SlackBlock => ({
  type: "context",
  elements: [{ type: "mrkdwn", text }],
});

/** A scope's name, cut and escaped, linked to its dashboard when it has one Slack accepts. */
function linked(name: string, url: string | null): string {
  const label = escapeMrkdwn(truncateText(name, NAME_CHARS));
  if (url === null || url.length > SLACK_LIMITS.urlChars || !/^https?:\/\//i.test(url))
    return label;
  return `<${url.replaceAll(">", "%3E").replaceAll("|", "%7C")}|${label.replaceAll("|", "\u2758")}>`;
}

/** " · <url|Open dashboard>" for a template without `{project_id}`; else "". */
function teamLink(input: AlertMessageInput): string {
  const url = teamDashboardUrl(input);
  if (url === null || url.length > SLACK_LIMITS.urlChars || !/^https?:\/\//i.test(url)) return "";
  return ` \u00b7 <${url.replaceAll(">", "%3E").replaceAll("|", "%7C")}|Open dashboard>`;
}
