import type { DeliveryLedger, DeliveryResult, RetryAt } from "../../deliver/deliver-all.js";
import type { DigestClients } from "../../destinations/registry.js";
import type { RequestCache } from "../../insights/collect-insights.js";
import type { InsightsApi } from "../../insights/types.js";
import type { Logger } from "../../logger.js";
import type { ChartPainter } from "../../render/charts/draw-chart.js";
import type { Chart } from "../../render/charts/trend-chart.js";
import type { Report } from "../../report/types.js";
import type { AlertEvaluation, AlertState, SlotLog } from "../../state/ledger.js";

// What a digest's run is handed (its clients, its ledger, its painter) and what it hands back.

/** The claimed deliveries of a digest's run, and the slot log's `recordSlot` to record its slot. */
export interface DigestLedger extends DeliveryLedger, Pick<SlotLog, "recordSlot"> {}

/** `slack`, `email`, …: what sends the digest to each destination kind (null: not sent there). */
export interface DigestDeps extends DigestClients {
  api: InsightsApi;
  ledger: DigestLedger | null;
  cache: RequestCache;
  logger: Logger;
  /** For the daemon's retries; the CLI gives up at once. */
  retryAt?: RetryAt;
  /** The destinations write to an outbox: what they do is "written", never "sent". */
  outbox?: boolean;
  /** The team's alerts firing now (from the ledger), shown first in the digest. */
  firingAlerts?: (team: string) => Promise<readonly AlertState[]>;
  /**
   * What draws the charts: the process's painter (`Clients.chartPainter`, a chart worker in the
   * built package). Required, so no caller draws on the daemon's thread without saying so.
   */
  chartPainter: ChartPainter;
  /** The team's alert evaluations within a period (from the ledger), for the workbook. */
  alertEvaluations?: (query: {
    team: string;
    from: string;
    to: string;
  }) => Promise<readonly AlertEvaluation[]>;
}

export interface DigestOutcome {
  key: string;
  report: Report;
  deliveries: DeliveryResult[];
  /** The trend charts the digest carried; none without `charts` in its config. */
  charts: Chart[];
}
