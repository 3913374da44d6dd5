import type { Evaluation } from "../../alerts/types.js";
import type { DeliveryLedger, DeliveryResult, RetryAt } from "../../deliver/deliver-all.js";
import type { AlertNotification } from "../../destinations/alert-notification.js";
import type { AlertClients } from "../../destinations/registry.js";
import type { RequestCache } from "../../insights/collect-insights.js";
import type { InsightsApi } from "../../insights/types.js";
import type { Logger } from "../../logger.js";
import type { Period } from "../../periods/types.js";
import type { ChartPainter } from "../../render/charts/draw-chart.js";
import type { IncidentStore } from "../../state/incidents.js";
import type { AlertHolds, AlertStateLog, SlotLog } from "../../state/ledger.js";

// What an alert's run is handed (its clients, its ledger, its painter) and what it hands back.

/**
 * What an alert reads and records in the ledger: its states and evaluations, the silences and
 * acknowledgements that hold its messages back, its fires' slots (a thread's root post), and
 * the open incidents its members belong to.
 */
export type AlertStore = AlertStateLog & AlertHolds & SlotLog & IncidentStore;

/** The ledger as an alert uses it (`state/` implements it). */
export type AlertLedger = AlertStore & DeliveryLedger;

/**
 * The ledger an alert reads and records in, delivering through `deliveries` (claimed). The
 * stores are plain objects (`asyncLedger`'s, `openPostgresLedger`'s), so a spread carries every
 * call; the claimed view comes last, so its calls win over the store's own deliveries.
 */
export function alertLedger(store: AlertStore, deliveries: DeliveryLedger): AlertLedger {
  return { ...store, ...deliveries };
}

/** `slack`, `email`, …: what sends the alert's messages to each destination kind (null: not sent there). */
export interface AlertDeps extends AlertClients {
  api: InsightsApi;
  /** null: nothing recorded, nothing read (a dry run without a ledger). */
  ledger: AlertLedger | null;
  /** A dry run (`alerts --outbox`): reads states, records nothing, sends to the outbox. */
  dryRun?: boolean;
  cache: RequestCache;
  logger: Logger;
  retryAt?: RetryAt;
  /** The destinations write to an outbox: what they do is "written", never "sent". */
  outbox?: boolean;
  /**
   * Put Acknowledge and Snooze on a firing alert's Slack messages: only where a daemon listens
   * for the presses (`slack.app_token`), or to show what one would post (the demo).
   */
  slackButtons?: boolean;
  /** What draws a fire's chart: the process's painter (`Clients.chartPainter`). */
  chartPainter: ChartPainter;
}

export interface AlertOutcome {
  key: string;
  window: Period;
  /** The evaluation made now; null when a recorded one was re-sent. */
  evaluation: Evaluation | null;
  notification: AlertNotification | null;
  deliveries: DeliveryResult[];
}
