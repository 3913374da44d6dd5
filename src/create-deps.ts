import type { ResolvedConfig } from "./config/types.js";
import type { SmtpDestination } from "./deliver/email-smtp.js";
import { createOutbox } from "./deliver/outbox.js";
import { parseSmtpUrl } from "./deliver/smtp-url.js";
import type { EmailDestination, SlackAlertDestination, SlackDestination } from "./deliver/types.js";
import {
  createInsightsClient,
  type InsightsClient,
  type RequestInfo,
} from "./insights/create-insights-client.js";
import { openOnce, withDayStore } from "./insights/stored-insights-api.js";
import { createLogger, type Logger } from "./logger.js";
import type { Secret } from "./secret.js";
import { openDayStore } from "./state/open-day-store.js";
import { storeExists } from "./state/open-store.js";

const DEFAULT_SETTLE_AFTER_MS = 48 * 3_600_000;

// The Slack SDK and nodemailer are loaded when a destination is first used, not when the
// clients are built: a daemon at rest, or one writing to an outbox, never holds them (some
// 30 MB of a daemon's resident memory).

/**
 * The one place real clients are built from the config: the insights API client, and the
 * Slack and email destinations — or, with an outbox, files in their place. Everything else
 * receives these as arguments.
 */
export interface Clients {
  api: InsightsClient;
  slack: SlackDestination | null;
  /** Alert messages: posts, thread replies and edits of a fire's first message. */
  slackAlerts: SlackAlertDestination | null;
  email: EmailDestination | null;
  /** Paths the outbox wrote, when there is one. */
  outboxFiles: string[] | null;
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
): InsightsClient {
  return withLedgerDays(config, createPlainApiClient(config, onRequest), logger, now);
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
  config: ResolvedConfig,
  onRequest?: (info: RequestInfo) => void,
): InsightsClient {
  return createInsightsClient({
    baseUrl: config.api.url,
    key: config.api.key,
    concurrency: config.api.concurrency,
    timeoutMs: config.api.timeoutMs,
    maxAttempts: config.api.maxAttempts,
    maxResponseBytes: config.api.maxResponseBytes,
    ...(onRequest ? { onRequest } : {}),
  });
}

/** The API client and every destination the config has credentials for (or the outbox). */
export function createClients(config: ResolvedConfig, options: ClientOptions): Clients {
  const { logger } = options;
  const now = options.now;
  const api = createApiClient(
    config,
    options.onApiRequest,
    logger,
    now ? () => now().getTime() : Date.now,
  );

  if (options.outbox) {
    const outbox = createOutbox(
      options.outbox,
      async (message) =>
        (await import("./deliver/email-eml.js")).composeEml(message, config.email.from),
      config.email.maxBytes,
    );
    return {
      api,
      slack: outbox.slack,
      slackAlerts: outbox.slackAlerts,
      email: outbox.email,
      outboxFiles: outbox.written,
      close: () => api.close(),
    };
  }

  const slackToken = config.slack.token;
  const slack = slackToken ? slackOnFirstUse(slackToken, config.slack.apiUrl, logger) : null;
  const smtp = config.email.smtpUrl ? smtpOnFirstUse(config, config.email.smtpUrl, logger) : null;
  return {
    api,
    slack: slack?.digests ?? null,
    slackAlerts: slack?.alerts ?? null,
    email: smtp,
    outboxFiles: null,
    async close() {
      await smtp?.close();
      await api.close();
    },
  };
}

/** Both Slack destinations over one set of clients, built with the SDK on the first call. */
function slackOnFirstUse(token: Secret, apiUrl: string | null, logger: Logger) {
  let built: Promise<{ digests: SlackDestination; alerts: SlackAlertDestination }> | null = null;
  const load = () => {
    built ??= (async () => {
      const [{ createSlackClients }, { createSlackDestination }, { createSlackAlertDestination }] =
        await Promise.all([
          import("./deliver/slack-client.js"),
          import("./deliver/slack-destination.js"),
          import("./deliver/slack-alert-destination.js"),
        ]);
      const clients = createSlackClients({ token, apiUrl, logger });
      return {
        digests: createSlackDestination({ clients, logger }),
        alerts: createSlackAlertDestination(clients, logger),
      };
    })();
    return built;
  };
  const digests: SlackDestination = {
    post: async (...args) => (await load()).digests.post(...args),
    findPosted: async (...args) => (await load()).digests.findPosted(...args),
  };
  const alerts: SlackAlertDestination = {
    postAlert: async (...args) => (await load()).alerts.postAlert(...args),
    updateAlert: async (...args) => (await load()).alerts.updateAlert(...args),
  };
  return { digests, alerts };
}

/**
 * The SMTP destination, built with nodemailer on the first mail. SMTP_URL is read now, so a bad
 * one still stops start-up (exit 2) rather than the first digest.
 */
function smtpOnFirstUse(
  config: ResolvedConfig,
  smtpUrl: Secret,
  logger: Logger,
): EmailDestination & { close(): Promise<void> } {
  parseSmtpUrl(smtpUrl);
  let built: Promise<SmtpDestination> | null = null;
  const load = () => {
    built ??= import("./deliver/email-smtp.js").then(({ createSmtpDestination }) =>
      createSmtpDestination({
        smtpUrl,
        from: config.email.from,
        maxBytes: config.email.maxBytes,
        logger,
      }),
    );
    return built;
  };
  return {
    maxBytes: config.email.maxBytes,
    measure: async (message) => (await load()).measure(message),
    send: async (message) => (await load()).send(message),
    async close() {
      (await built)?.close();
    },
  };
}
