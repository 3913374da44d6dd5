import type { ResolvedConfig } from "./config/types.js";
import { composeEml } from "./deliver/email-eml.js";
import { createSmtpDestination } from "./deliver/email-smtp.js";
import { createOutbox } from "./deliver/outbox.js";
import { createSlackAlertDestination } from "./deliver/slack-alert-destination.js";
import { createSlackClients } from "./deliver/slack-client.js";
import { createSlackDestination } from "./deliver/slack-destination.js";
import type { EmailDestination, SlackAlertDestination, SlackDestination } from "./deliver/types.js";
import {
  createInsightsClient,
  type InsightsClient,
  type RequestInfo,
} from "./insights/create-insights-client.js";
import type { Logger } from "./logger.js";

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
}

/** The insights API client alone, for commands that send nothing (preview, export, check-config). */
export function createApiClient(
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
  const api = createApiClient(config, options.onApiRequest);

  if (options.outbox) {
    const outbox = createOutbox(
      options.outbox,
      (message) => composeEml(message, config.email.from),
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
  const slackClients = slackToken
    ? createSlackClients({ token: slackToken, apiUrl: config.slack.apiUrl, logger })
    : null;
  const slack = slackClients ? createSlackDestination({ clients: slackClients, logger }) : null;
  const slackAlerts = slackClients ? createSlackAlertDestination(slackClients, logger) : null;
  const smtp = config.email.smtpUrl
    ? createSmtpDestination({
        smtpUrl: config.email.smtpUrl,
        from: config.email.from,
        maxBytes: config.email.maxBytes,
        logger,
      })
    : null;
  return {
    api,
    slack,
    slackAlerts,
    email: smtp,
    outboxFiles: null,
    async close() {
      smtp?.close();
      await api.close();
    },
  };
}
