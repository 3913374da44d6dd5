import { applySilences } from "../../alerts/silencing.js";
import type { Evaluation } from "../../alerts/types.js";
import type { AlertJob } from "./alert-slot.js";
import type { AlertDeps } from "./alert-types.js";

// The alert's decide stage: the silences and acknowledgements that stand now, and what they hold
// back from being posted.

/**
 * The evaluation as recorded, and as posted: silences and acknowledgements hold back what is
 * posted, never what is recorded.
 */
export async function holdBack(job: AlertJob, key: string, measured: Evaluation, deps: AlertDeps) {
  const standing = await standingActions(job, measured, deps);
  const silenced = applySilences({
    evaluation: measured,
    rule: job.alert,
    silences: standing.silences,
    acknowledged: standing.acknowledged,
    now: job.fireAt.toISOString(),
  });
  if (silenced.held.length > 0) {
    deps.logger.info(
      { slot: key, held: silenced.held.map((t) => `${t.scope}:${t.kind}`) },
      "alert transitions held back by a silence or an acknowledgement",
    );
  }
  return { recorded: silenced.recorded, posted: silenced.posted, standing };
}

/** What the hold stage decided: the evaluation to record, the one to post, and why. */
export type Held = Awaited<ReturnType<typeof holdBack>>;

/**
 * The alert's silences and the acknowledgements that still stand: a new escalation of a fire
 * clears its acknowledgement (`cleared`, written once the evaluation is recorded), so it is
 * neither honoured nor shown from this evaluation on.
 */
async function standingActions(job: AlertJob, evaluation: Evaluation, deps: AlertDeps) {
  const ledger = deps.ledger;
  const [silences, acks] = ledger
    ? await Promise.all([
        ledger.silences({ team: job.team.name }),
        ledger.acknowledgements(job.team.name, job.alert.name),
      ])
    : [[], []];
  const escalated = new Set(
    evaluation.transitions.flatMap((t) =>
      t.kind === "escalated" && t.threadKey ? [t.threadKey] : [],
    ),
  );
  const standing = acks.filter((a) => !escalated.has(a.fireKey));
  return {
    silences: silences.filter((s) => s.alert === job.alert.name),
    acknowledged: new Set(standing.map((a) => a.fireKey)),
    // The latest acknowledgement of each fire is the one its first message shows.
    shown: Object.fromEntries(
      standing.map((a) => [a.fireKey, { by: a.author, at: a.acknowledgedAt.toISOString() }]),
    ),
    cleared: [...new Set(acks.filter((a) => escalated.has(a.fireKey)).map((a) => a.fireKey))],
  };
}
