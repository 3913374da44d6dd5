import { fromScopeState } from "../../alerts/ledger-state.js";
import type { Evaluation } from "../../alerts/types.js";
import type { AlertNotification } from "../../destinations/alert-notification.js";
import { DESTINATION_KINDS, DESTINATIONS } from "../../destinations/registry.js";
import type { Period } from "../../periods/types.js";
import type { AlertJob } from "./alert-slot.js";
import type { AlertDeps } from "./alert-types.js";
import type { Held } from "./hold-stage.js";

// The alert's record stage: the slot, the new states and the notification in one transaction,
// so a retry of the slot sends what was decided and never judges again.

/**
 * Records the evaluation with its notification, once: another process that recorded this slot
 * first decided what is sent, so its notification is the one returned. Acknowledgements that a
 * new escalation cleared are written once the evaluation is ours.
 */
export async function recordOnce(
  job: AlertJob,
  key: string,
  window: Period,
  held: Held,
  notification: AlertNotification | null,
  deps: AlertDeps,
): Promise<AlertNotification | null> {
  const fresh = deps.dryRun || (await record(job, key, window, held.recorded, notification, deps));
  if (fresh && !deps.dryRun && held.standing.cleared.length > 0) {
    await deps.ledger?.clearAcknowledgements(
      job.team.name,
      job.alert.name,
      held.standing.cleared,
      job.fireAt,
    );
  }
  if (fresh) return notification;
  const theirs = await deps.ledger?.getAlertEvaluation(key);
  return theirs?.notification ?? null;
}

async function record(
  job: AlertJob,
  key: string,
  window: Period,
  evaluation: Evaluation,
  notification: AlertNotification | null,
  deps: AlertDeps,
): Promise<boolean> {
  if (!deps.ledger) return true;
  const destinations = DESTINATION_KINDS.flatMap((kind) => {
    const message = notification?.[kind];
    return message ? [DESTINATIONS[kind].id(message as never)] : [];
  });
  return deps.ledger.recordAlertEvaluation({
    slot: {
      key,
      team: job.team.name,
      kind: "alert",
      job: job.alert.name,
      fireAt: job.fireAt,
      period: window,
      destinations,
    },
    alert: job.alert.name,
    states: evaluation.results.map((r) => fromScopeState(job.team.name, job.alert.name, r.state)),
    results: evaluation.results.map(({ scope, name, sample, verdict, state }) => ({
      scope,
      name,
      value: sample.value,
      size: sample.size,
      verdict,
      state: state.state,
      transition: evaluation.transitions.find((t) => t.scope === scope)?.kind ?? null,
    })),
    notification,
  });
}
