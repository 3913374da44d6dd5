import { incidentTitle } from "../../../render/alert/incident-words.js";
import type { IncidentRenderInput } from "../../destination-module.js";
import { WEBHOOK_BODY_VERSION, type WebhookIncidentBody } from "./webhook-body-schema.js";

// An incident as the signed webhook's body (issue 38 item 3): `kind: "incident"`, sent when it
// forms (state "open") and again when its last member resolves (state "resolved").

/** The webhook body of an incident, or of its resolution. */
export function webhookIncidentBody(input: IncidentRenderInput): WebhookIncidentBody {
  const { record, resolved } = input;
  return {
    version: WEBHOOK_BODY_VERSION,
    kind: "incident",
    key: input.key,
    at: input.now,
    incident: {
      key: input.incidentKey,
      state: resolved ? "resolved" : "open",
      summary: record.summary,
      title: incidentTitle(record, resolved),
      members: record.members.map((m) => ({
        team: m.team,
        alert: m.alert,
        metric: m.metric,
        scope: m.scope,
        name: m.name,
        value: m.value,
        fire_key: m.fireKey,
      })),
    },
  };
}
