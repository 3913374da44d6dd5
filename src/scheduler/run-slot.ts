import type { IncidentsConfig } from "../config/types.js";
import type { Clients } from "../create-deps.js";
import {
  acknowledgementCleared,
  acknowledgementDestinations,
  deliverAcknowledgement,
} from "../pipeline/alert/acknowledge-stage.js";
import { type AlertStore, alertLedger as alertLedgerOf } from "../pipeline/alert/alert-types.js";
import { runAlert } from "../pipeline/alert/run-alert.js";
import { runDigest } from "../pipeline/digest/run-digest.js";
import {
  deliverIncident,
  type IncidentDeps,
  runIncidents,
} from "../pipeline/incident/run-incidents.js";
import type { AlertHolds } from "../state/ledger.js";
import type { AcknowledgementResend, RunSlot } from "./daemon-types.js";
import type { IncidentContext, IncidentStep } from "./incident-fires.js";

/**
 * Runs a job's slot with the clients built at start: a digest through `runDigest`, an alert
 * through `runAlert`. An alert reads and records its states in `alertLedger`, and delivers
 * through the run's own ledger view, which leaves alone what is not due now.
 */
export function createJobRunner(
  clients: Pick<Clients, "api" | "digests" | "alerts" | "chartPainter" | "slackButtons"> &
    Partial<Pick<Clients, "outboxFiles">>,
  alertLedger: AlertStore,
): RunSlot {
  return async (job, fireAt, context) => {
    const common = {
      api: clients.api,
      cache: context.cache,
      logger: context.logger,
      retryAt: context.retryAt,
      outbox: clients.outboxFiles != null,
      chartPainter: clients.chartPainter,
    };
    if (job.kind === "alert") {
      // Deliveries through the run's view: claimed when due, each write fenced by its claim.
      const ledger = alertLedgerOf(alertLedger, context.ledger);
      const outcome = await runAlert(
        { team: job.team, alert: job.alert, fireAt },
        {
          ...common,
          ...clients.alerts,
          ledger,
          slackButtons: clients.slackButtons,
        },
      );
      return { key: outcome.key, deliveries: outcome.deliveries };
    }
    const outcome = await runDigest(
      { team: job.team, digest: job.digest, fireAt },
      {
        ...common,
        ...clients.digests,
        ledger: context.ledger,
        firingAlerts: (team) => alertLedger.firingAlerts(team),
        alertEvaluations: (query) => alertLedger.alertEvaluations(query),
      },
    );
    return { key: outcome.key, deliveries: outcome.deliveries };
  };
}

/**
 * The incident step with the clients built at start (see `pipeline/incident/run-incidents.ts`):
 * it reads the alerts' evaluations and states in `ledger`, and delivers through the step's own
 * claimed view, to Slack and every other kind `incidents:` names.
 */
export function createIncidentStep(
  config: IncidentsConfig,
  clients: Pick<Clients, "digests" | "alerts">,
  ledger: IncidentDeps["ledger"],
): IncidentStep {
  const slack =
    clients.digests.slack && clients.alerts.slack
      ? { digest: clients.digests.slack, alert: clients.alerts.slack }
      : null;
  const depsOf = (context: IncidentContext): IncidentDeps => ({
    config,
    ledger,
    deliveries: context.ledger,
    slack,
    clients: clients.alerts,
    logger: context.logger,
    retryAt: context.retryAt,
  });
  return {
    afterFire: (fire, alerts, context) => runIncidents(fire, alerts, depsOf(context)),
    resend: (key, context) => deliverIncident(key, depsOf(context)),
  };
}

/** Sends an acknowledgement's slot again through the alert clients built at start. */
export function createAcknowledgementResend(
  clients: Pick<Clients, "alerts">,
  options: { ledger: Pick<AlertHolds, "acknowledgement"> },
): AcknowledgementResend {
  return {
    cleared: (key) => acknowledgementCleared(key, options.ledger),
    destinations: (key, alert) => acknowledgementDestinations(key, alert, clients.alerts),
    async resend(key, alert, recorded, context) {
      await deliverAcknowledgement(key, alert, recorded, {
        ledger: context.ledger,
        clients: clients.alerts,
        logger: context.logger,
        retryAt: context.retryAt,
      });
    },
  };
}
