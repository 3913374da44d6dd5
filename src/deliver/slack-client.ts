import { type Logger as LibraryLogger, LogLevel, WebClient, WebClientEvent } from "@slack/web-api";
import type { Secret } from "../secret.js";
import { scrub } from "./slack-errors.js";

/** The one logging call the Slack adapter needs; a pino logger fits. */
export interface SlackLogger {
  warn(obj: object, msg: string): void;
}

export interface SlackClientOptions {
  token: Secret;
  /** SLACK_API_URL; null for Slack itself. */
  apiUrl: string | null;
  /** Give up retrying a call after this long (default 2 minutes). */
  maxRetryTimeMs?: number;
  /** Retries of one call after the first attempt (default 5). */
  retries?: number;
  /** First backoff between retries, doubled each time (default 1 s); Retry-After comes on top. */
  minRetryDelayMs?: number;
  /** Per-request timeout (default 30 s), so a stalled connection cannot hang a delivery. */
  timeoutMs?: number;
  /** Gets the library's warnings and each rate limit; silent when absent. */
  logger?: SlackLogger;
  /** Retry a call only when Slack rate-limited it (see `createSlackClients`). */
  retryOnlyRateLimits?: boolean;
}

/** The two clients a Slack destination needs: they differ only in what they retry. */
export interface SlackClients {
  /** Lookups, thread replies and uploads: retried on rate limits, timeouts and 5xx, bounded. */
  calls: WebClient;
  /**
   * The digest's own `chat.postMessage`: retried only on a rate limit, the one failure that
   * proves nothing was posted. After a timeout or a 5xx the post may have landed, so the attempt
   * fails instead, and the next one looks the message up in the channel before posting again.
   */
  posts: WebClient;
}

/** Both Slack clients over the same token and options. */
export function createSlackClients(options: SlackClientOptions): SlackClients {
  return {
    calls: createSlackClient(options),
    posts: createSlackClient({ ...options, retryOnlyRateLimits: true }),
  };
}

/**
 * Builds the Slack WebClient — the one place one is made. Retries are bounded in count and in
 * time, unlike the library's default of ten retries over about 30 minutes, which would hold a
 * digest (and the daemon's shutdown) for half an hour. A 429 waits for its Retry-After before
 * the next attempt; one Retry-After longer than the budget is still waited once.
 */
export function createSlackClient(options: SlackClientOptions): WebClient {
  const maxRetryTime = options.maxRetryTimeMs ?? 120_000;
  const minTimeout = options.minRetryDelayMs ?? 1000;
  const client = new WebClient(options.token.reveal(), {
    ...(options.apiUrl ? { slackApiUrl: options.apiUrl } : {}),
    retryConfig: {
      retries: options.retries ?? 5,
      factor: 2,
      minTimeout,
      maxTimeout: Math.max(minTimeout, Math.min(30_000, maxRetryTime / 4)),
      maxRetryTime,
      randomize: true,
      ...(options.retryOnlyRateLimits ? { onFailedAttempt: abortUnlessRateLimited } : {}),
    },
    rejectRateLimitedCalls: false,
    timeout: options.timeoutMs ?? 30_000,
    // The original axios error holds the request config, Authorization header included.
    attachOriginalToWebAPIRequestError: false,
    logger: libraryLogger(options.logger, options.token),
  });
  client.on(WebClientEvent.RATE_LIMITED, (retryAfterSeconds: number, request: { url?: string }) => {
    options.logger?.warn(
      { method: methodOf(request.url), retryAfterSeconds },
      "Slack rate-limited a call; waiting as its Retry-After asks before retrying",
    );
  });
  return client;
}

/**
 * p-retry's hook: throwing ends the retries. The library signals a rate-limited attempt (after
 * waiting its Retry-After) with this message; anything else may have reached Slack.
 */
function abortUnlessRateLimited(error: Error): void {
  if (!error.message.startsWith("A rate limit was exceeded")) throw error;
}

/** The library's logger interface over ours: debug and info dropped, warnings forwarded. */
function libraryLogger(logger: SlackLogger | undefined, token: Secret): LibraryLogger {
  let level = LogLevel.WARN;
  const forward = (args: unknown[]) => {
    if (!logger) return;
    const detail = args.map((a) => (a instanceof Error ? a.message : String(a))).join(" ");
    logger.warn({ detail: scrub(detail, token.reveal()) }, "Slack Web API client warning");
  };
  return {
    debug: () => {},
    info: () => {},
    warn: (...args: unknown[]) => forward(args),
    error: (...args: unknown[]) => forward(args),
    setLevel: (next: LogLevel) => {
      level = next;
    },
    getLevel: () => level,
    setName: () => {},
  };
}

/** The Web API method at the end of a request URL (`…/api/chat.postMessage`). */
function methodOf(url: string | undefined): string | null {
  return url?.split("/").pop() ?? null;
}
