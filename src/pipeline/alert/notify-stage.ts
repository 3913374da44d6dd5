import {
  type FireHistory,
  fireHistory,
  firesOf,
  type PastEvaluation,
} from "../../alerts/fire-history.js";
import { standingSnoozes } from "../../alerts/silencing.js";
import type { Evaluation } from "../../alerts/types.js";
import type { AlertConfig, AlertDestinations } from "../../config/types.js";
import {
  type AlertNotification,
  buildAlertNotification,
} from "../../destinations/alert-notification.js";
import { type AlertClients, DESTINATION_KINDS } from "../../destinations/registry.js";
import type { Period } from "../../periods/types.js";
import type { IncidentRef } from "../../render/alert/alert-view.js";
import type { AlertJob } from "./alert-slot.js";
import type { AlertDeps } from "./alert-types.js";
import type { Held } from "./hold-stage.js";

// The alert's render stage: what the ledger remembers of the fires it speaks of, then the
// notification rendered for each destination kind the alert has a client for.

/** The notification of what the hold stage let through, rendered for every destination kind. */
export async function notify(
  job: AlertJob,
  key: string,
  window: Period,
  held: Held,
  deps: AlertDeps,
): Promise<AlertNotification | null> {
  return buildAlertNotification({
    history: await historyOf(job, key, window, held.posted, deps),
    dashboardUrl: job.team.dashboardUrl,
    owners: Object.fromEntries(job.team.projects.map((p) => [p.id, p.owners])),
    key,
    team: { name: job.team.name, title: job.team.title, timezone: job.team.timezone },
    alert: job.alert,
    period: window,
    mention: job.alert.slack?.mention ?? null,
    evaluation: held.posted,
    acknowledgements: held.standing.shown,
    snoozes: standingSnoozes(
      held.recorded.results,
      held.standing.silences,
      job.fireAt.toISOString(),
    ),
    incidents: await incidentsOf(held.posted, deps),
    buttons: deps.slackButtons === true,
    ...targetsWithClients(job.alert, deps),
    now: job.fireAt.toISOString(),
  });
}

/**
 * What the ledger remembers of the fires this evaluation speaks of: the window each fired in
 * and its peak since, so a resolution can say "after 3 days (peak 9.5% on Nov 11)". Read only.
 */
async function historyOf(
  job: AlertJob,
  key: string,
  window: Period,
  evaluation: Evaluation,
  deps: AlertDeps,
): Promise<Record<string, FireHistory>> {
  const ledger = deps.ledger;
  const fires = firesOf(evaluation);
  if (!ledger || evaluation.transitions.length === 0 || fires.length === 0) return {};
  const roots = await Promise.all(fires.map((k) => ledger.getAlertEvaluation(k)));
  const starts = roots.flatMap((r) => (r ? [r.period.start] : []));
  if (starts.length === 0) return {};
  const from = starts.reduce((a, b) => (a < b ? a : b));
  const recorded = await ledger.alertEvaluations({ team: job.team.name, from, to: window.end });
  const now: PastEvaluation = {
    key,
    period: window,
    results: evaluation.results.map((r) => ({ scope: r.scope, value: r.sample.value })),
  };
  const past = [...recorded.filter((e) => e.alert === job.alert.name && e.key !== key), now];
  return fireHistory(job.alert.metric, evaluation, past);
}

/**
 * The open incident each fire of the evaluation is a member of, by the fire's key: the line the
 * incident added to the fire's first message is kept when this evaluation edits it again. An
 * incident resolves only after its last member has, so an open one covers every later edit.
 */
async function incidentsOf(
  evaluation: Evaluation,
  deps: AlertDeps,
): Promise<Record<string, IncidentRef>> {
  const fires = new Set(firesOf(evaluation));
  if (!deps.ledger || fires.size === 0) return {};
  const found: Record<string, IncidentRef> = {};
  for (const incident of await deps.ledger.openIncidents()) {
    for (const member of incident.record.members) {
      if (fires.has(member.fireKey)) {
        found[member.fireKey] = { key: incident.key, channel: incident.record.channel };
      }
    }
  }
  return found;
}

/** The alert's destinations that have a client to send them; null for the others. */
function targetsWithClients(alert: AlertConfig, clients: AlertClients): AlertDestinations {
  return Object.fromEntries(
    DESTINATION_KINDS.map((kind) => [kind, clients[kind] ? alert[kind] : null]),
  ) as AlertDestinations;
}
