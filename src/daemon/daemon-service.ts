import { hostname } from "node:os";
import type { ResolvedConfig } from "../config/types.js";
import { createClients } from "../create-deps.js";
import { outboxLedgerPath } from "../deliver/outbox.js";
import { slackActionsApi } from "../destinations/slack/slack-actions-api.js";
import type { Logger } from "../logger.js";
import { createDaemonMetrics } from "../ops/metrics.js";
import { startOpsServer } from "../ops/ops-server.js";
import { attachesWorkbook, loadWorkbookRenderer } from "../pipeline/digest/render-stage.js";
import { listJobs } from "../scheduler/jobs.js";
import {
  createAcknowledgementResend,
  createIncidentStep,
  createJobRunner,
} from "../scheduler/run-slot.js";
import { createDaemon, type Daemon } from "../scheduler/scheduler.js";
import { handleAlertAction } from "../slack-app/alert-actions.js";
import { slackResponder } from "../slack-app/slack-response-url.js";
import {
  describeEnvelope,
  openSlackSocket,
  type SlackSocket,
  type SlackSocketStatus,
  socketReadiness,
} from "../slack-app/slack-socket.js";
import { createSlashCommandHandler } from "../slack-app/slash-command.js";
import { createDigestNow } from "../slack-app/slash-digest.js";
import { openStore } from "../state/open/open-store.js";
import { restartOnlyChanges } from "./restart-only-changes.js";
import { startPrefetch } from "./start-prefetch.js";

// The running daemon and what it stands on, assembled in order: the ledger (and its lease —
// a second daemon on the same file stops here), the clients, the scheduler, Slack's Socket
// Mode when an app token is set, the ops server.
// `start-command.ts` adds the process around it (signals, exit status); tests drive it as is.

// /readyz fails when the scheduler has not ticked for this long (it ticks every second).
const TICK_STALE_MS = 2 * 60_000;

export interface DaemonServiceOptions {
  logger: Logger;
  now?: () => Date;
  tickMs?: number;
  retryDelaysMs?: readonly number[];
  /**
   * Write what would be sent into this directory instead of sending. Slots are then recorded
   * in a ledger inside it, never in `state.path`, so a later real daemon still delivers them.
   */
  outbox?: string;
  /** Socket Mode's first reconnect delay after a failed attempt (tests shorten it). */
  socketReconnectStepMs?: number;
}

export interface DaemonService {
  /** The ops server's base URL (`/healthz`, `/readyz`, `/metrics`). */
  opsUrl: string;
  /** Where the ledger is. */
  ledgerPath: string;
  daemon: Daemon;
  /** The Socket Mode connection's state; null without `slack.app_token` or with an outbox. */
  slackSocket(): SlackSocketStatus | null;
  /** Resolves if the daemon must stop by itself: another daemon took its ledger over. */
  fatal: Promise<Error>;
  /** Applies a reloaded config's teams, digests and schedules. */
  reload(config: ResolvedConfig): void;
  /** No new slots; running ones get `graceMs`; then lease, ledger and clients are let go. */
  stop(graceMs: number): Promise<void>;
}

/** Opens the ledger, takes its lease, and starts scheduling; throws LedgerLockedError if taken. */
export async function startDaemonService(
  config: ResolvedConfig,
  options: DaemonServiceOptions,
): Promise<DaemonService> {
  const { logger } = options;
  const now = options.now ?? (() => new Date());
  const preloaded = await preload(config);
  // An outbox run keeps its own SQLite ledger, whatever store the config names.
  const store = options.outbox
    ? { path: outboxLedgerPath(options.outbox), url: null }
    : config.state;
  const ledger = await openStore(store, { logger, now });
  try {
    await ledger.acquireDaemonLease("insights-reporter start");
  } catch (error) {
    await ledger.close();
    throw error;
  }
  const metrics = createDaemonMetrics(
    async () => {
      const alerts = current.teams.flatMap((team) =>
        team.alerts.map((a) => [team.name, a.name] as const),
      );
      const states = await Promise.all(
        alerts.map(([team, alert]) => ledger.alertStates(team, alert)),
      );
      return states.flat();
    },
    { outbox: Boolean(options.outbox) },
  );
  const clients = createClients(config, {
    logger,
    ...(options.outbox ? { outbox: options.outbox } : {}),
    onApiRequest: metrics.apiRequest,
    now,
  });
  let signalFatal: (error: Error) => void = () => {};
  const fatal = new Promise<Error>((resolve) => {
    signalFatal = resolve;
  });
  const owner = `daemon pid ${process.pid} on ${hostname()}`;
  const daemon = createDaemon({
    jobs: listJobs(config.teams),
    ledger,
    runSlot: createJobRunner(clients, ledger),
    incidents: config.incidents ? createIncidentStep(config.incidents, clients, ledger) : null,
    acknowledgements: createAcknowledgementResend(clients, { ledger }),
    logger,
    metrics,
    now,
    sendTimeoutMs: config.state.sendTimeoutMs,
    // A burst waits its turn within state.max_slots_in_flight. Replicas share a busy minute:
    // each runs no more slots than it has API connections for, and leaves the rest to others.
    maxRunsInFlight: ledger.shared
      ? Math.min(config.api.concurrency, config.state.maxSlotsInFlight)
      : config.state.maxSlotsInFlight,
    owner,
    ...(options.tickMs !== undefined ? { tickMs: options.tickMs } : {}),
    ...(options.retryDelaysMs ? { retryDelaysMs: options.retryDelaysMs } : {}),
    onFatal: signalFatal,
  });

  let current = config;

  const slashCommand = createSlashCommandHandler({
    teams: () => current.teams,
    ledger,
    digestNow: createDigestNow({
      ledger,
      clients,
      sendTimeoutMs: config.state.sendTimeoutMs,
      owner: (asker) => `slash command by ${asker}, ${owner}`,
      logger,
      now,
      // One of the daemon's runs: listed, counted, and bounded by the grace at shutdown.
      runUnscheduled: (key, work) => daemon.runUnscheduled(key, work),
      metrics,
    }),
    respond: slackResponder(config.slack.apiUrl),
    logger,
    now,
  });

  // An outbox run sends nothing to Slack, so it takes no button presses either.
  const appToken = options.outbox ? null : config.slack.appToken;
  // Answers to presses go through the bot token; the SDK loads on the first press.
  const slackActions =
    appToken && config.slack.token
      ? slackActionsApi(config.slack.token, config.slack.apiUrl, logger)
      : null;
  const socket: SlackSocket | null = appToken
    ? openSlackSocket({
        appToken,
        apiUrl: config.slack.apiUrl,
        logger,
        metrics,
        now,
        ...(options.socketReconnectStepMs
          ? { reconnectStepMs: options.socketReconnectStepMs }
          : {}),
        // Acknowledged already: each kind of envelope to its handler.
        onEnvelope: async (envelope) => {
          logger.info(describeEnvelope(envelope), "Slack envelope acknowledged");
          switch (envelope.type) {
            case "interactive":
              await handleAlertAction(envelope.body, {
                ledger,
                slack: slackActions,
                alertClients: clients.alerts,
                teams: () => current.teams,
                logger,
                now,
                deliveries: {
                  owner: `Slack press, ${owner}`,
                  sendTimeoutMs: config.state.sendTimeoutMs,
                  ...(options.retryDelaysMs ? { retryDelaysMs: options.retryDelaysMs } : {}),
                },
              });
              break;
            case "slash_commands":
              await slashCommand(envelope);
              break;
          }
        },
      })
    : null;

  const ledgerCheck = async () => {
    const problem = await ledger.reachable().catch((error: unknown) => String(error));
    return problem === null
      ? { ok: true, detail: ledger.location }
      : { ok: false, detail: problem };
  };
  let ops: Awaited<ReturnType<typeof startOpsServer>>;
  try {
    ops = await startOpsServer({
      host: config.server.host,
      port: config.server.port,
      metrics: async () => ({
        contentType: metrics.registry.contentType,
        body: await metrics.registry.metrics(),
      }),
      readiness: async () => {
        const { lastTickAt, stopping } = daemon.status();
        const ticked =
          lastTickAt !== null && now().getTime() - lastTickAt.getTime() < TICK_STALE_MS;
        const checks = {
          config: { ok: true, detail: current.source },
          ledger: await ledgerCheck(),
          scheduler: {
            ok: ticked && !stopping,
            detail: stopping ? "stopping" : `last tick ${lastTickAt?.toISOString() ?? "never"}`,
          },
          ...(socket ? { slack_socket: socketReadiness(socket.status(), now()) } : {}),
        };
        return { ready: Object.values(checks).every((c) => c.ok), checks };
      },
    });
  } catch (error) {
    await socket?.stop();
    await ledger.releaseLease();
    await ledger.close();
    await clients.close();
    throw error;
  }

  const jobs = listJobs(config.teams).map((j) => j.id);
  logger.info({ ledger: ledger.location, ops: ops.url, jobs, preloaded }, "daemon started");
  daemon.start();
  // Tomorrow's settled days, fetched while nothing runs (history.prefetch).
  const prefetch = startPrefetch(config, {
    clients,
    daemon,
    teams: () => current.teams,
    owner,
    logger,
    now,
  });

  let stopping: Promise<void> | null = null;
  async function stopService(graceMs: number): Promise<void> {
    const deadline = performance.now() + graceMs;
    // No request more; the one in flight (if any) may end within the grace.
    const prefetchStopped = prefetch?.stop();
    const unfinished = await daemon.stop(graceMs);
    if (unfinished.length > 0) {
      logger.warn(
        { unfinished },
        "stopping with slots still in flight: their destinations stay recorded as sending, and the next start checks before sending again",
      );
    }
    // A handler still answering a command (its digest cut off above) gets what is left of the grace.
    await socket?.stop(Math.max(0, deadline - performance.now()));
    if (prefetchStopped) {
      await Promise.race([prefetchStopped, delay(Math.max(0, deadline - performance.now()))]);
    }
    await ops.close();
    await ledger.releaseLease();
    await ledger.close();
    // The chart worker ends with the clients. A delivery cut off by the grace period may hold
    // a connection; do not wait on it forever.
    await Promise.race([clients.close(), delay(2_000)]);
    logger.info({ ledger: ledger.location }, "daemon stopped");
  }

  return {
    opsUrl: ops.url,
    ledgerPath: ledger.location,
    daemon,
    slackSocket: () => socket?.status() ?? null,
    fatal,
    reload(next) {
      const ignored = restartOnlyChanges(current, next);
      if (ignored.length > 0) {
        logger.warn(
          { sections: ignored },
          `config reloaded, but changes to ${ignored.join(", ")} take effect only after a restart`,
        );
      }
      current = next;
      daemon.replaceJobs(listJobs(next.teams));
      logger.info(
        { source: next.source, jobs: listJobs(next.teams).map((j) => j.id) },
        "config reloaded",
      );
    },
    stop(graceMs) {
      // Once: a second call (a second signal, a test's cleanup) waits for the first.
      stopping ??= stopService(graceMs);
      return stopping;
    },
  };
}

/**
 * Loads now what a digest would otherwise import on its first run, holding the event loop (and
 * every delivery in flight) meanwhile: exceljs, when a digest attaches a workbook. Named in the
 * "daemon started" line once loaded.
 */
async function preload(config: ResolvedConfig): Promise<string[]> {
  const digests = config.teams.flatMap((team) => team.digests);
  if (!digests.some(attachesWorkbook)) return [];
  await loadWorkbookRenderer();
  return ["exceljs"];
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
