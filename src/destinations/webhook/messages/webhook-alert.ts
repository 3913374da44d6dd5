import { ALERT_METRIC_TABLE } from "../../../alerts/alert-metrics.js";
import {
  type AlertMessageInput,
  headlineText,
  transitionSentence,
  worstOf,
} from "../../../render/alert/alert-view.js";
import { WEBHOOK_BODY_VERSION, type WebhookAlertBody } from "./webhook-body-schema.js";

// An alert evaluation as the signed webhook's body: each transition with its state, value,
// interval and threshold in the alert's own unit, ready for a pager's routing rules.

/** The webhook body of an alert evaluation's notification. */
export function webhookAlertBody(input: AlertMessageInput, now: string): WebhookAlertBody {
  const { alert } = input;
  return {
    version: WEBHOOK_BODY_VERSION,
    kind: "alert",
    key: input.key,
    team: { ...input.team },
    period: { start: input.period.start, end: input.period.end },
    news: {
      summary: headlineText(input, now),
      lines: input.transitions.map((t) => ({
        kind: "alert",
        project_id: t.scope === "team" ? null : t.scope,
        name: t.name,
        text: transitionSentence(input, t, now),
        tone: t.to === "ok" ? "good" : "bad",
      })),
    },
    figures: null,
    projects: [],
    alert: {
      name: alert.name,
      metric: alert.metric,
      unit: ALERT_METRIC_TABLE[alert.metric].unit,
      warn_at: alert.warnAt,
      critical_at: alert.criticalAt,
      clear_at: alert.clearAt,
      confidence: alert.confidence,
      state: worstOf(input.transitions.map((t) => t.to)),
      transitions: input.transitions.map((t) => ({
        kind: t.kind,
        scope: t.scope,
        name: t.name,
        from: t.from,
        to: t.to,
        value: t.sample.value,
        interval: t.sample.interval,
        threshold: t.threshold,
        results: t.sample.size,
      })),
    },
  };
}
