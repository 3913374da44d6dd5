import { hostname } from "node:os";
import { SECRET_LOG_PATHS } from "../config/secret-paths.js";
import { createClients } from "../create-deps.js";
import { claimingLedger } from "../deliver/claiming-ledger.js";
import { deliveryWord } from "../deliver/deliver-all.js";
import { createRequestCache } from "../insights/collect-insights.js";
import { createLogger } from "../logger.js";
import { alertLedger } from "../pipeline/alert/alert-types.js";
import { runAlert } from "../pipeline/alert/run-alert.js";
import { renderTerminalAlert } from "../render/alert/terminal-alert.js";
import { printableText } from "../render/printable-text.js";
import { fitLine } from "../render/terminal/terminal-style.js";
import { openStore, storeExists } from "../state/open/open-store.js";
import { firstRetryAt } from "../timetable/retry-delays.js";
import { findAlert, findTeam, loadCommandConfig } from "./command-context.js";
import { inNameOrder } from "./outbox-lines.js";
import { terminalWidth } from "./terminal-width.js";

export interface AlertsOptions {
  team: string;
  alert: string;
  at?: Date;
  outbox?: string;
  config?: string;
}

/**
 * `alerts`: one evaluation now, recorded in the ledger like the daemon's (states and the
 * notification in one transaction), then delivered. With `--outbox` it is a dry run: the
 * states are read, never written, and the message goes to files. Exit 1 when a delivery failed.
 */
export async function alertsCommand(
  opts: AlertsOptions,
  out: (line: string) => void,
): Promise<number> {
  const config = loadCommandConfig(opts, { requireCredentials: !opts.outbox, team: opts.team });
  const team = findTeam(config, opts.team);
  const alert = findAlert(team, opts.alert);
  const dryRun = Boolean(opts.outbox);
  // Every line fits the terminal (80 columns when piped), as run's: a wider one breaks between
  // words, the rest indented two more. A path stays on its line: it cannot be broken.
  const width = terminalWidth();
  const say = (line: string) => {
    for (const fitted of fitLine(line, width)) out(fitted);
  };
  // A dry run reads the states of an existing ledger, and creates none.
  const logger = createLogger({ secretPaths: SECRET_LOG_PATHS });
  const ledger =
    !dryRun || storeExists(config.state) ? await openStore(config.state, { logger }) : null;
  // Claimed at the moment of sending, like `run`: a daemon sending the same notification now
  // keeps it, and this command leaves it alone instead of posting it a second time.
  const claims =
    ledger &&
    alertLedger(
      ledger,
      claimingLedger(ledger, {
        owner: `alerts pid ${process.pid} on ${hostname()}`,
        sendTimeoutMs: config.state.sendTimeoutMs,
        take: "open",
      }),
    );
  const clients = createClients(config, {
    logger,
    foreground: true,
    ...(opts.outbox ? { outbox: opts.outbox } : {}),
  });
  try {
    const outcome = await runAlert(
      { team, alert, fireAt: opts.at ?? new Date() },
      {
        api: clients.api,
        ...clients.alerts,
        ledger: claims,
        dryRun,
        outbox: dryRun,
        slackButtons: clients.slackButtons,
        chartPainter: clients.chartPainter,
        cache: createRequestCache(),
        logger,
        ...(ledger && !dryRun ? { retryAt: firstRetryAt(() => new Date()) } : {}),
      },
    );
    if (outcome.evaluation) {
      for (const line of renderTerminalAlert(
        alert,
        { ...outcome, evaluation: outcome.evaluation },
        width,
      ))
        out(line);
    } else {
      say(
        `${outcome.key}: evaluated before, says the ledger ${ledger?.location}; the notification recorded then goes to each destination it has not reached:`,
      );
    }
    if (dryRun) say("  dry run: states left as they were");
    for (const d of outcome.deliveries) {
      say(
        d.status === "failed"
          ? `  ✗ ${d.id} failed: ${printableText(d.error?.message ?? "unknown error")}`
          : `  ✓ ${d.id} ${deliveryWord(d.status, dryRun)}`,
      );
    }
    for (const file of inNameOrder(clients.outboxFiles ?? [])) say(`  wrote ${file}`);
    return outcome.deliveries.some((d) => d.status === "failed") ? 1 : 0;
  } finally {
    await clients.close();
    await ledger?.close();
  }
}
