import type { Evaluation, ScopeState } from "../alerts/types.js";
import type { AlertNotification } from "../messages.js";
import type {
  Acknowledged,
  AlertMessageInput,
  IncidentRef,
  RootView,
  Snoozed,
} from "../render/alert/alert-view.js";
import type { AlertRenderInput } from "./destination-module.js";
import { DESTINATION_KINDS, DESTINATIONS, type DestinationKind } from "./registry.js";

export type { AlertNotification } from "../messages.js";

// What an evaluation decided to send, rendered in full: recorded in the ledger with the new
// states, so a retry sends exactly this and never judges again.

export interface NotificationInput extends Omit<AlertMessageInput, "transitions" | "mentionDue"> {
  evaluation: Evaluation;
  slack: { channel: string } | null;
  email: { to: string[] } | null;
  /** The destination ids of a Teams workflow and a signed webhook (their URLs stay in the config). */
  msteams: { destination: string } | null;
  webhook: { destination: string } | null;
  /** The destination id of a PagerDuty service (its routing key stays in the config). */
  pagerduty: { destination: string } | null;
  now: string;
  /** The standing acknowledgement of each fire, by its key, shown in its first message. */
  acknowledgements?: Readonly<Record<string, Acknowledged>>;
  /** The snooze that holds on each fire now, by its key, shown in its first message. */
  snoozes?: Readonly<Record<string, Snoozed>>;
  /** The incident each fire is a member of, by its key: its first message keeps naming it. */
  incidents?: Readonly<Record<string, IncidentRef>>;
}

/** The notification of an evaluation, or null when nothing changed. */
export function buildAlertNotification(input: NotificationInput): AlertNotification | null {
  const { evaluation, now } = input;
  if (evaluation.transitions.length === 0) return null;
  const message: AlertMessageInput = {
    ...input,
    transitions: evaluation.transitions,
    mentionDue: evaluation.mention,
  };
  const fired = evaluation.transitions.some((t) => t.kind === "fired");
  const roots = rootViews(evaluation, now).map((root) => ({
    ...root,
    acknowledged: input.acknowledgements?.[root.rootKey] ?? null,
    snoozed: input.snoozes?.[root.rootKey] ?? null,
    incident: input.incidents?.[root.rootKey] ?? null,
  }));
  // A fire starts a thread; anything else belongs under the fire it follows.
  const threadKey = fired
    ? null
    : (evaluation.transitions.find((t) => t.threadKey)?.threadKey ?? null);
  const render: AlertRenderInput = {
    message,
    now,
    threadKey,
    roots,
    broadcast: evaluation.transitions.some((t) => t.kind === "escalated"),
  };
  return eachKind(<K extends DestinationKind>(kind: K) => {
    const address = input[kind];
    return address ? DESTINATIONS[kind].renderAlert(address as never, render) : null;
  });
}

/** The notification, one message per kind (null: no destination of that kind). */
function eachKind(render: (kind: DestinationKind) => unknown): AlertNotification {
  return Object.fromEntries(
    DESTINATION_KINDS.map((kind) => [kind, render(kind)]),
  ) as unknown as AlertNotification;
}

/** For each fire that a transition follows, every scope it announced, as it stands now. */
function rootViews(evaluation: Evaluation, now: string): RootView[] {
  const keys = [
    ...new Set(
      evaluation.transitions
        .filter((t) => t.kind !== "fired")
        .flatMap((t) => (t.threadKey ? [t.threadKey] : [])),
    ),
  ];
  return keys.map((rootKey) => {
    const firing = evaluation.results.filter((r) => r.state.threadKey === rootKey);
    const resolved = evaluation.transitions.filter(
      (t) => t.kind === "resolved" && t.threadKey === rootKey,
    );
    const scopes = [
      ...firing.map((r) => view(r.scope, r.name, r.state)),
      ...resolved.map((t) => ({
        scope: t.scope,
        name: t.name,
        state: t.to,
        value: t.sample.value,
        firedAt: t.firedAt,
      })),
    ];
    return { rootKey, scopes, resolvedAt: firing.length === 0 ? now : null };
  });
}

const view = (scope: string, name: string, s: ScopeState) => ({
  scope,
  name,
  state: s.state,
  value: s.lastValue,
  firedAt: s.firedAt,
});
