import type { Evaluation } from "../../alerts/types.js";
import { deliveryWord } from "../../deliver/deliver-all.js";
import type { AlertNotification } from "../../destinations/alert-notification.js";
import type { Period } from "../../periods/types.js";
import { type AlertJob, alertSlot } from "./alert-slot.js";
import type { AlertDeps, AlertOutcome } from "./alert-types.js";
import { deliverNotification } from "./deliver-stage.js";
import { evaluate } from "./evaluate-stage.js";
import { holdBack } from "./hold-stage.js";
import { notify } from "./notify-stage.js";
import { recordOnce } from "./record-stage.js";

// One alert evaluation, start to finish, in named stages: the window its fire covers → collect
// the team's insights and evaluate each scope against its last state → hold back what silences
// and acknowledgements keep from being posted → render the notification → record the slot, the
// new states and the notification in one transaction → deliver. A retry of the slot finds the
// evaluation recorded and sends what it decided: it never judges again against states that have
// already moved.

/** What was decided for the slot: now, or by an earlier attempt that recorded it. */
interface Decided {
  /** The evaluation made now; null when a recorded one is re-sent. */
  evaluation: Evaluation | null;
  notification: AlertNotification | null;
  /** The scopes that fired: only a fire's first messages carry its charts. */
  fired: readonly { scope: string; name: string }[];
}

/** Runs one evaluation: evaluate and record (or find it recorded) → deliver. */
export async function runAlert(job: AlertJob, deps: AlertDeps): Promise<AlertOutcome> {
  const { key, window } = alertSlot(job);
  const recorded = deps.dryRun ? null : await deps.ledger?.getAlertEvaluation(key);
  const { evaluation, notification, fired }: Decided = recorded
    ? {
        evaluation: null,
        notification: recorded.notification,
        fired: recorded.results.filter((r) => r.transition === "fired"),
      }
    : await decide(job, key, window, deps);
  const deliveries = await deliverNotification(job, key, window, notification, fired, deps);
  deps.logger.info(
    {
      slot: key,
      transitions:
        evaluation?.transitions.map((t) => `${t.scope}:${t.from}->${t.to}`) ?? "recorded",
      deliveries: Object.fromEntries(
        deliveries.map((d) => [d.id, deliveryWord(d.status, deps.outbox === true)]),
      ),
    },
    "alert evaluated",
  );
  return { key, window, evaluation, notification, deliveries };
}

/** A new evaluation: evaluate → hold back → render → record, each a stage of its own. */
async function decide(
  job: AlertJob,
  key: string,
  window: Period,
  deps: AlertDeps,
): Promise<Decided> {
  const measured = await evaluate(job, key, window, deps);
  const held = await holdBack(job, key, measured, deps);
  const rendered = await notify(job, key, window, held, deps);
  const notification = await recordOnce(job, key, window, held, rendered, deps);
  const evaluation = held.recorded;
  return {
    evaluation,
    notification,
    fired: evaluation.transitions.filter((t) => t.kind === "fired"),
  };
}
