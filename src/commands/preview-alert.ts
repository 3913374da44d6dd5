import { SECRET_LOG_PATHS } from "../config/secret-paths.js";
import type { ResolvedConfig, Team } from "../config/types.js";
import { createApiClient, createChartPainter } from "../create-read-clients.js";
import { claimingLedger } from "../deliver/claiming-ledger.js";
import { noClients } from "../destinations/registry.js";
import { createRequestCache } from "../insights/collect-insights.js";
import { createLogger } from "../logger.js";
import { alertLedger } from "../pipeline/alert/alert-types.js";
import { runAlert } from "../pipeline/alert/run-alert.js";
import { renderTerminalAlert } from "../render/alert/terminal-alert.js";
import { openStore, storeExists } from "../state/open/open-store.js";
import { findAlert } from "./command-context.js";
import { terminalWidth } from "./terminal-width.js";

// `preview --alert`, apart from the digest's preview: it alone needs the alert pipeline and
// the destinations' renderers, which a digest's preview then never loads.

/** `preview --alert`: one evaluation against the ledger's states (read, never written); nothing sent. */
export async function previewAlert(
  config: ResolvedConfig,
  team: Team,
  name: string,
  fireAt: Date,
  out: (line: string) => void,
): Promise<number> {
  const alert = findAlert(team, name);
  const logger = createLogger({ level: "warn", secretPaths: SECRET_LOG_PATHS });
  const ledger = storeExists(config.state) ? await openStore(config.state, { logger }) : null;
  const api = createApiClient(config);
  const chartPainter = createChartPainter();
  try {
    const deps = {
      api,
      ...noClients(),
      chartPainter,
      // A dry run reads states and sends nothing; the view is claimed all the same (types say so).
      ledger:
        ledger &&
        alertLedger(
          ledger,
          claimingLedger(ledger, {
            owner: "preview",
            sendTimeoutMs: config.state.sendTimeoutMs,
            take: "open",
          }),
        ),
      dryRun: true,
      cache: createRequestCache(),
      logger,
    };
    const outcome = await runAlert({ team, alert, fireAt }, deps);
    if (!outcome.evaluation) return 0;
    for (const line of renderTerminalAlert(
      alert,
      { ...outcome, evaluation: outcome.evaluation },
      terminalWidth(),
    ))
      out(line);
    return 0;
  } finally {
    await chartPainter.close();
    await api.close();
    await ledger?.close();
  }
}
