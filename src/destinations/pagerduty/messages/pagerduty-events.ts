import type { Transition } from "../../../alerts/types.js";
import type { PagerdutyEvent } from "../../../messages.js";
import {
  type AlertMessageInput,
  formatMetric,
  headlineText,
  type RootView,
  ruleText,
  scopeDashboardUrl,
  shortPeriod,
  teamDashboardUrl,
  transitionParts,
  transitionSentence,
  worstOf,
} from "../../../render/alert/alert-view.js";
import { incidentMemberLine, incidentTitle } from "../../../render/alert/incident-words.js";
import type { AlertRenderInput, IncidentRenderInput } from "../../destination-module.js";

// An alert evaluation as PagerDuty events, one per fire it speaks of, the fire's key as the
// dedup key: a fire triggers (warning or critical); an escalation or de-escalation triggers the
// same key again with the new severity (PagerDuty updates the alert it has); the fire's last
// scope resolving resolves it. A reminder says nothing new to a pager: no event. The words are
// the alert's own (alert-view.ts), so PagerDuty, Slack and the mail never disagree. Pure.

/** PagerDuty caps a summary at 1024 characters; the headline is shorter, this is a guard. */
const SUMMARY_CHARS = 1024;

/** The events of an evaluation's notification, in the order its fires are named. */
export function pagerdutyEvents(input: AlertRenderInput): PagerdutyEvent[] {
  const { message, now, roots } = input;
  const byFire = new Map<string, Transition[]>();
  for (const t of message.transitions) {
    if (t.kind === "reminder") continue;
    // A fire opens with this evaluation's key; later changes follow the fire they belong to.
    const fire = t.kind === "fired" ? message.key : t.threadKey;
    if (fire === null) continue;
    byFire.set(fire, [...(byFire.get(fire) ?? []), t]);
  }
  return [...byFire].map(([fire, transitions]) => {
    const root = roots.find((r) => r.rootKey === fire);
    const words = { ...message, transitions };
    const links = linksOf(words);
    if (root?.resolvedAt) return { action: "resolve", dedupKey: fire, links };
    return {
      action: "trigger",
      dedupKey: fire,
      payload: {
        summary: headlineText(words, now).slice(0, SUMMARY_CHARS),
        severity: severityOf(root, transitions),
        source: `insights-reporter/${message.team.name}`,
        group: message.team.name,
        class: message.alert.metric,
        customDetails: detailsOf(words, now),
      },
      links,
    };
  });
}

/**
 * An incident's event (issue 38 item 3): a critical trigger when it forms, its key the dedup key,
 * so the one PagerDuty alert it opens resolves when its last member does.
 */
export function pagerdutyIncidentEvent(input: IncidentRenderInput): PagerdutyEvent {
  const { record, incidentKey } = input;
  if (input.resolved) return { action: "resolve", dedupKey: incidentKey, links: [] };
  return {
    action: "trigger",
    dedupKey: incidentKey,
    payload: {
      summary: incidentTitle(record, false).slice(0, SUMMARY_CHARS),
      severity: "critical",
      source: "insights-reporter/incidents",
      group: [...new Set(record.members.map((m) => m.team))].join(", "),
      class: "incident",
      customDetails: {
        incident: incidentKey,
        members: record.members.map(incidentMemberLine),
      },
    },
    links: [],
  };
}

/** The acknowledgement of a fire: PagerDuty's alert of that key is acknowledged too. */
export function pagerdutyAcknowledge(fireKey: string): PagerdutyEvent {
  return { action: "acknowledge", dedupKey: fireKey, links: [] };
}

/** Critical when any scope of the fire is; warning otherwise (pending and no data included). */
function severityOf(
  root: RootView | undefined,
  transitions: readonly Transition[],
): "warning" | "critical" {
  const states = root ? root.scopes.map((s) => s.state) : transitions.map((t) => t.to);
  return worstOf(states) === "critical" ? "critical" : "warning";
}

/** The figures behind the summary: the alert, its window and thresholds, each scope's change. */
function detailsOf(input: AlertMessageInput, now: string): Record<string, unknown> {
  const { metric } = input.alert;
  return {
    team: input.team.name,
    alert: input.alert.name,
    metric,
    window: shortPeriod(input.period),
    window_start: input.period.start,
    window_end: input.period.end,
    thresholds: ruleText(input),
    changes: input.transitions.map((t) => ({
      scope: t.scope,
      name: t.name,
      change: `${t.kind}: ${t.from} → ${t.to}`,
      value: formatMetric(metric, t.sample.value),
      text: transitionSentence(input, t, now),
      figures: transitionParts(input, t).join(" · "),
    })),
  };
}

/** The dashboards of the scopes that changed (or the team's one), each once. */
function linksOf(input: AlertMessageInput): { href: string; text: string }[] {
  const team = teamDashboardUrl(input);
  if (team) return [{ href: team, text: `${input.team.title} dashboard` }];
  const seen = new Set<string>();
  return input.transitions.flatMap((t) => {
    const href = scopeDashboardUrl(input, t.scope);
    if (!href || seen.has(href)) return [];
    seen.add(href);
    return [{ href, text: `${t.name} dashboard` }];
  });
}
