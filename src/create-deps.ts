import { chartPainterOnFirstUse } from "./chart-painter/chart-painter-on-first-use.js";
import type { OwnedChartPainter } from "./chart-painter/chart-worker-client.js";
import type { ResolvedConfig } from "./config/types.js";
import { createOutboxFiles } from "./deliver/outbox.js";
import {
  type AlertClients,
  DESTINATION_KINDS,
  DESTINATIONS,
  type DestinationKind,
  type DestinationShapes,
  type DigestClients,
} from "./destinations/registry.js";
import type { SlackDestination } from "./destinations/slack/slack-clients.js";
import { withProjectListCache } from "./insights/cached-project-list.js";
import {
  createInsightsClient,
  type InsightsClient,
  type RequestInfo,
} from "./insights/create-insights-client.js";
import { createRequestBudget, type SharedRequestWindow } from "./insights/request-budget.js";
import { openOnce, withDayStore } from "./insights/stored-insights-api.js";
import { createLogger, type Logger } from "./logger.js";
import { configRedactor, redactingErrors } from "./redact-errors.js";
import { openDayStore } from "./state/open/open-day-store.js";
import { storeExists } from "./state/open/open-store.js";
import { postgresRequestWindow } from "./state/postgres/postgres-request-window.js";

const DEFAULT_SETTLE_AFTER_MS = 48 * 3_600_000;

// Each destination's SDK (Slack's, nodemailer) is loaded when the destination is first used,
// not when the clients are built: a daemon at rest, or one writing to an outbox, never holds
// them (some 30 MB of a daemon's resident memory). So is the chart painter: Vega, resvg and
// the chart worker are loaded and started by the first chart, never by a process without one.

/**
 * The one place real clients are built from the config: the insights API client, and each
 * destination's clients (destinations/registry.ts) — or, with an outbox, files in their place.
 * Everything else receives these as arguments.
 */
export interface Clients {
  api: InsightsClient;
  /** What sends a digest, per destination kind; null where it has no credentials. */
  digests: DigestClients;
  /** What sends an alert's messages (Slack: posts, thread replies and edits of a fire's first message). */
  alerts: AlertClients;
  /** Paths the outbox wrote, when there is one. */
  outboxFiles: string[] | null;
  /**
   * Whether a firing alert's Slack messages carry Acknowledge and Snooze: only with
   * `slack.app_token`, where a daemon takes the presses, whichever process posts the message.
   */
  slackButtons: boolean;
  /** What draws the trend charts of digests and alert fires: a chart worker in the built package. */
  chartPainter: OwnedChartPainter;
  /** Ends the chart worker, then closes the destinations and the API client. */
  close(): Promise<void>;
}

export interface ClientOptions {
  logger: Logger;
  /** Write what would be sent into this directory instead of sending. */
  outbox?: string;
  onApiRequest?: (info: RequestInfo) => void;
  /** The clock the day store judges fresh and settled days by (the daemon's own). */
  now?: () => Date;
}

/** The insights API client alone, for commands that send nothing (preview, export, check-config). */
export function createApiClient(
  config: ResolvedConfig,
  onRequest?: (info: RequestInfo) => void,
  logger?: Logger,
  now: () => number = Date.now,
  sharedWindow?: SharedRequestWindow,
): InsightsClient {
  return redactingErrors(
    withLedgerDays(config, createPlainApiClient(config, onRequest, sharedWindow), logger, now),
    configRedactor(config),
  );
}

/**
 * The client behind the day store of the ledger, when there is a ledger (a command run before
 * any daemon, on a fresh machine, asks the API alone rather than create one).
 */
function withLedgerDays(
  config: ResolvedConfig,
  client: InsightsClient,
  logger: Logger = createLogger({ level: "silent" }),
  now: () => number = Date.now,
): InsightsClient {
  const store = openOnce(
    async () => (storeExists(config.state) ? openDayStore(config.state, logger) : null),
    (error) =>
      logger.warn(
        { err: error instanceof Error ? error.message : String(error) },
        "the day store did not open: asking the insights API for every day",
      ),
  );
  const stored = withDayStore(client, {
    days: store.days,
    now,
    settleAfterMs: config.history?.settleAfterMs ?? DEFAULT_SETTLE_AFTER_MS,
    ...(config.history ? { keep: config.history.keep } : {}),
  });
  return {
    ...stored,
    close: async () => {
      await client.close();
      await store.close();
    },
  };
}

/** The insights API client without the day store (the backfill holds the store itself). */
export function createPlainApiClient(
  config: Pick<ResolvedConfig, "api">,
  onRequest?: (info: RequestInfo) => void,
  sharedWindow?: SharedRequestWindow,
): InsightsClient {
  const { api } = config;
  const client = createInsightsClient({
    baseUrl: api.url,
    key: api.key,
    concurrency: api.concurrency,
    timeoutMs: api.timeoutMs,
    maxAttempts: api.maxAttempts,
    maxResponseBytes: api.maxResponseBytes,
    // The process's one budget: every caller of this client (digests, alerts, the project
    // list) takes its turns from it, and replicas from the ledger's window as well.
    budget: createRequestBudget({
      maxPerMinute: api.maxRequestsPerMinute,
      ...(sharedWindow ? { shared: sharedWindow } : {}),
    }),
    ...(onRequest ? { onRequest } : {}),
  });
  // Kept for the process, across ticks: fetched again after an hour or for a project it lacks.
  return withProjectListCache(client);
}

/**
 * The insights API client from its settings alone, with no config and no ledger around it
 * (`projects`, `init`): its errors redacted of the key all the same.
 */
export function createApiOnlyClient(api: ResolvedConfig["api"]): InsightsClient {
  return redactingErrors(createPlainApiClient({ api }), configRedactor({ api }));
}

/**
 * The process's painter of trend charts: a chart worker in the built package, started on the
 * first chart and ended when idle; its owner ends it with `close`.
 */
export function createChartPainter(): OwnedChartPainter {
  return chartPainterOnFirstUse();
}

/** The API client and every destination the config has credentials for (or the outbox). */
export function createClients(config: ResolvedConfig, options: ClientOptions): Clients {
  const { logger } = options;
  const now = options.now;
  const slackButtons = config.slack.appToken !== null;
  // Replicas on PostgreSQL take their API requests from one window in the database, so that
  // together they stay within api.max_requests_per_minute (a limit only the API announces is
  // kept by each process alone: the window needs the number before the first answer).
  const window =
    config.state.url && config.api.maxRequestsPerMinute !== null
      ? postgresRequestWindow(config.state.url.reveal(), logger)
      : null;
  const plainApi = createApiClient(
    config,
    options.onApiRequest,
    logger,
    now ? () => now().getTime() : Date.now,
    window ?? undefined,
  );
  const api: InsightsClient = window
    ? {
        ...plainApi,
        close: async () => {
          await plainApi.close();
          await window.close();
        },
      }
    : plainApi;
  const chartPainter = createChartPainter();

  if (options.outbox) {
    const files = createOutboxFiles(options.outbox);
    const outboxes = perKind<KindClients>(<K extends DestinationKind>(kind: K) =>
      DESTINATIONS[kind].outbox(files, config[kind]),
    );
    return {
      api,
      digests: perKind<DigestClients>((kind) => outboxes[kind].digest),
      alerts: perKind<AlertClients>((kind) => outboxes[kind].alert),
      outboxFiles: files.written,
      slackButtons,
      chartPainter,
      async close() {
        await chartPainter.close();
        await api.close();
      },
    };
  }

  const built = perKind<{ [K in DestinationKind]: (KindClients[K] & Closable) | null }>(
    <K extends DestinationKind>(kind: K) => DESTINATIONS[kind].clients(config[kind], logger),
  );
  // Whatever a receiver answers, no configured secret goes on in an error (redact-errors.ts).
  const redact = configRedactor(config);
  const redacting = <C>(client: C): C =>
    client === null || typeof client !== "object" ? client : redactingErrors(client, redact);
  return {
    api,
    digests: perKind<DigestClients>((kind) => redacting(built[kind]?.digest ?? null)),
    alerts: perKind<AlertClients>((kind) => redacting(built[kind]?.alert ?? null)),
    outboxFiles: null,
    slackButtons,
    chartPainter,
    async close() {
      // First: it ends at once, and a destination's close may be cut short (the daemon's stop).
      await chartPainter.close();
      for (const kind of DESTINATION_KINDS) await built[kind]?.close();
      await api.close();
    },
  };
}

/**
 * Slack's lookup of an earlier top-level post, for an alert's recovery after a crash mid-post
 * (a fire's post is found like a digest's); none without a Slack client.
 */
export function findSlackPostOf(clients: Pick<Clients, "digests">): {
  findSlackPost?: SlackDestination["findPosted"];
} {
  const slack = clients.digests.slack;
  return slack ? { findSlackPost: (...args) => slack.findPosted(...args) } : {};
}

/** Each destination kind's clients, for digests and for alerts. */
type KindClients = { [K in DestinationKind]: DestinationShapes[K]["clients"] };
type Closable = { close(): Promise<void> };

/**
 * One value per destination kind, in the registry's order. `each` is called with one kind at a
 * time, so what it returns is that kind's (TypeScript cannot follow the kind into a map).
 */
function perKind<T extends { [K in DestinationKind]: unknown }>(
  each: (kind: DestinationKind) => T[DestinationKind],
): T {
  return Object.fromEntries(DESTINATION_KINDS.map((kind) => [kind, each(kind)])) as T;
}
