import { chartPainterOnFirstUse } from "./chart-painter/chart-painter-on-first-use.js";
import type { OwnedChartPainter } from "./chart-painter/chart-worker-client.js";
import type { ResolvedConfig } from "./config/types.js";
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
import type { DayStore } from "./state/day-store.js";
import { storeExists } from "./state/open/open-store.js";

// The clients of a command that sends nothing (preview, export, check-config, projects): the
// insights API client and the chart painter. Apart from create-deps.ts, which builds the
// destinations' clients as well, so that such a command loads no destination's module.

const DEFAULT_SETTLE_AFTER_MS = 48 * 3_600_000;

/**
 * How long the days of an answer may wait to be committed to the day store with others, while
 * the digest goes on with the answer. Each committed as it came, one or two answers a commit and
 * many commits after a wake-up of their own, a daemon's next-day cycle of 50 digests at
 * concurrency 4 cost 1.3 ms of CPU a digest more (docs/performance.md, "CPU per digest, fourth
 * session"). Closing the client commits what waits; a crash loses at most this much of them, to
 * be asked again.
 */
const WRITE_BEHIND_MS = 1_000;

/** The insights API client behind the day store, and that store (opened on its first use). */
export interface StoredApiClient extends InsightsClient {
  /** The day store the client reads and fills; null without a ledger, or when it did not open. */
  dayStore(): Promise<DayStore | null>;
}

/** The insights API client alone, for commands that send nothing (preview, export, check-config). */
export function createApiClient(
  config: ResolvedConfig,
  onRequest?: (info: RequestInfo) => void,
  logger?: Logger,
  now: () => number = Date.now,
  sharedWindow?: SharedRequestWindow,
): StoredApiClient {
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
): StoredApiClient {
  const redact = configRedactor(config);
  const store = openOnce(
    // The SQLite driver is loaded only for a ledger that is there.
    async () =>
      storeExists(config.state)
        ? (await import("./state/open/open-day-store.js")).openDayStore(config.state, logger)
        : null,
    (error) =>
      logger.warn(
        { err: redact(error instanceof Error ? error.message : String(error)) },
        "the day store did not open: asking the insights API for every day",
      ),
  );
  const stored = withDayStore(client, {
    days: store.days,
    now,
    settleAfterMs: config.history?.settleAfterMs ?? DEFAULT_SETTLE_AFTER_MS,
    ...(config.history ? { keep: config.history.keep } : {}),
    writeBehind: {
      commitWithinMs: WRITE_BEHIND_MS,
      onError: (error, series) =>
        logger.warn(
          {
            err: redact(error instanceof Error ? error.message : String(error)),
            project: series.projectId,
          },
          "the day store did not keep the days just fetched: they will be asked from the insights API again; check that the ledger (state.path or state.url) can be written to",
        ),
    },
  });
  return {
    ...stored,
    dayStore: store.days,
    // The requests still in flight end first, so the store keeps the days of their answers too.
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
