import type { OwnedChartPainter } from "./chart-painter/chart-worker-client.js";
import type { ResolvedConfig } from "./config/types.js";
import { createApiClient, createChartPainter } from "./create-read-clients.js";
import { createOutboxFiles } from "./deliver/outbox.js";
import {
  type AlertClients,
  DESTINATION_KINDS,
  DESTINATIONS,
  type DestinationKind,
  type DestinationShapes,
  type DigestClients,
} from "./destinations/registry.js";
import type { InsightsClient, RequestInfo } from "./insights/create-insights-client.js";
import { sharedApiWindow } from "./insights/request-budget.js";
import type { Logger } from "./logger.js";
import { configRedactor, redactingErrors } from "./redact-errors.js";
import type { DayStore } from "./state/day-store.js";
import { postgresSharedLimits } from "./state/postgres/postgres-shared-limits.js";

export {
  createApiClient,
  createApiOnlyClient,
  createChartPainter,
  createPlainApiClient,
} from "./create-read-clients.js";

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
  /** The day store behind `api` (the daemon's prefetch fills it); absent or null: none. */
  dayStore?: () => Promise<DayStore | null>;
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
  /**
   * A person waits at a terminal (`run`, `alerts`): a destination that cannot be reached is
   * reported within seconds instead of retried in the foreground; its failure is recorded for
   * the daemon's retries, which keep their own policy. Default false (the daemon).
   */
  foreground?: boolean;
}

/** The API client and every destination the config has credentials for (or the outbox). */
export function createClients(config: ResolvedConfig, options: ClientOptions): Clients {
  const { logger } = options;
  const now = options.now;
  const slackButtons = config.slack.appToken !== null;
  // Replicas on PostgreSQL take their API requests from one window in the database, so that
  // together they stay within api.max_requests_per_minute (a limit only the API announces is
  // kept by each process alone: the window needs the number before the first answer), and
  // their Slack calls from Slack's limits there, held together by a 429.
  const shared = config.state.url ? postgresSharedLimits(config.state.url.reveal(), logger) : null;
  const window =
    shared && config.api.maxRequestsPerMinute !== null ? sharedApiWindow(shared) : null;
  const plainApi = createApiClient(
    config,
    options.onApiRequest,
    logger,
    now ? () => now().getTime() : Date.now,
    window ?? undefined,
  );
  const api: InsightsClient = shared
    ? {
        ...plainApi,
        close: async () => {
          await plainApi.close();
          await shared.close();
        },
      }
    : plainApi;
  const chartPainter = createChartPainter();
  const dayStore = () => plainApi.dayStore();

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
      dayStore,
      async close() {
        await chartPainter.close();
        await api.close();
      },
    };
  }

  const built = perKind<{ [K in DestinationKind]: (KindClients[K] & Closable) | null }>(
    <K extends DestinationKind>(kind: K) =>
      DESTINATIONS[kind].clients(config[kind], logger, {
        shared,
        foreground: options.foreground === true,
      }),
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
    dayStore,
    async close() {
      // First: it ends at once, and a destination's close may be cut short (the daemon's stop).
      await chartPainter.close();
      for (const kind of DESTINATION_KINDS) await built[kind]?.close();
      await api.close();
    },
  };
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
