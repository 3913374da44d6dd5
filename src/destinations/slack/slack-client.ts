import { AsyncLocalStorage } from "node:async_hooks";
import { setTimeout as delay } from "node:timers/promises";
import { ErrorCode, type RetryOptions, WebClient, type WebClientOptions } from "@slack/web-api";
import type { Secret } from "../../secret.js";
import type { SharedLimits } from "../../state/shared-limits.js";
import { type SlackLogger, slackLibraryLogger } from "./slack-library-logger.js";
import { createSlackPacer } from "./slack-pacer.js";

export type { SlackLogger };

export interface SlackClientOptions {
  token: Secret;
  /** SLACK_API_URL; null for Slack itself. */
  apiUrl: string | null;
  /** Give up retrying a call after this long (default 2 minutes), Retry-After waits included. */
  maxRetryTimeMs?: number;
  /** Retries of one call after the first attempt (default 5). */
  retries?: number;
  /** First backoff between retries, doubled each time (default 1 s). */
  minRetryDelayMs?: number;
  /** Per-request timeout (default 30 s), so a stalled connection cannot hang a delivery. */
  timeoutMs?: number;
  /** Gets the library's warnings and each rate-limit wait; silent when absent. */
  logger?: SlackLogger;
  /** Waits out a Retry-After; tests pass one that only records the wait. */
  sleep?: (ms: number) => Promise<void>;
  /** Epoch milliseconds, for the retry time budget. */
  now?: () => number;
  /** Slack's limits and holds as replicas share them (state.url on PostgreSQL). */
  shared?: SharedLimits;
  /**
   * A person waits at a terminal (`run`, `alerts`): a Slack that refuses the connection, or
   * whose host does not resolve, fails the call at once, and other failures are retried for
   * seconds, not minutes. The failed delivery is recorded for the daemon's retries either way.
   */
  foreground?: boolean;
}

/** The Slack clients a destination needs, and how a rate-limited call is retried. */
export interface SlackClients {
  /**
   * Reads (lookups in a channel or thread, the channel list): retried by the library on
   * timeouts and 5xx, bounded, and never once the call's signal is aborted.
   */
  calls: WebClient;
  /**
   * Every write (a post, a thread reply, an edit, each step of an upload): never retried by
   * the library. After a timeout, a reset or a 5xx the write may have landed, so the attempt
   * fails instead, and the next one looks in the channel or thread before writing again
   * (ours is the one retry policy for writes: the ledger's, with that look-up).
   */
  writes: WebClient;
  /**
   * Runs one call of either client. A rate limit — the one failure that proves Slack did
   * nothing — is waited out as its Retry-After asks, while retries are left and the wait fits
   * in the time budget; a longer Retry-After fails at once instead of holding the digest.
   * With `signal`, no call starts once it is aborted, and the request in flight is aborted.
   */
  paced<T>(
    method: string,
    run: () => Promise<T>,
    signal?: AbortSignal,
    /** The channel of a chat.postMessage, whose limit is per channel. */
    channel?: string,
  ): Promise<T>;
  /**
   * True the first time `notice` is asked about over these clients, false after: a warning
   * about the app itself (a scope it lacks) is given once per app and process, however many
   * destinations (digests, alerts) share the clients.
   */
  firstNotice(notice: string): boolean;
}

/** The Slack clients over one token and one set of options. */
export function createSlackClients(options: SlackClientOptions): SlackClients {
  const retries = options.retries ?? 5;
  const maxRetryTimeMs = options.maxRetryTimeMs ?? 120_000;
  const sleep = options.sleep ?? ((ms: number) => delay(ms));
  const now = options.now ?? Date.now;
  // The signal of the call being made, for the clients' requests to carry (one client serves
  // every delivery at once, each with its own deadline).
  const signals = new AsyncLocalStorage<AbortSignal>();
  const noticed = new Set<string>();
  // Every caller of a method takes its turns from one pacer, and a 429 holds them all (and,
  // with `shared`, every replica's callers).
  const pacer = createSlackPacer({
    now,
    sleep,
    ...(options.shared ? { shared: options.shared } : {}),
  });
  return {
    calls: createSlackClient(options, signals),
    writes: createSlackClient({ ...options, retries: 0 }, signals),
    async paced(method, run, signal, channel) {
      const started = now();
      for (let retry = 0; ; retry++) {
        signal?.throwIfAborted();
        await pacer.turn(method, channel, signal);
        try {
          return await (signal ? signals.run(signal, run) : run());
        } catch (error) {
          const waitSeconds = rateLimitedFor(error);
          const spentMs = now() - started;
          if (waitSeconds === null) throw error;
          await pacer.hold(method, channel, waitSeconds * 1000);
          if (retry >= retries) throw error;
          if (spentMs + waitSeconds * 1000 > maxRetryTimeMs) throw error;
          options.logger?.warn(
            { method, retryAfterSeconds: waitSeconds },
            "Slack rate-limited a call; waiting as its Retry-After asks before retrying",
          );
          await sleep(waitSeconds * 1000);
        }
      }
    },
    firstNotice(notice) {
      if (noticed.has(notice)) return false;
      noticed.add(notice);
      return true;
    },
  };
}

/**
 * Builds a Slack WebClient — the one place one is made. Retries are bounded in count and in
 * time, unlike the library's default of ten retries over about 30 minutes, which would hold a
 * digest (and the daemon's shutdown) for half an hour. A rate-limited call is not retried here:
 * it fails with the Retry-After, for `paced` to decide.
 */
export function createSlackClient(
  options: SlackClientOptions,
  /** Where a request finds the signal that aborts it (see `SlackClients.paced`). */
  signals?: AsyncLocalStorage<AbortSignal>,
): WebClient {
  const foreground = options.foreground === true;
  const maxRetryTime = options.maxRetryTimeMs ?? (foreground ? 5_000 : 120_000);
  const minTimeout = options.minRetryDelayMs ?? 1000;
  return new WebClient(options.token.reveal(), {
    ...(options.apiUrl ? { slackApiUrl: options.apiUrl } : {}),
    retryConfig: {
      retries: options.retries ?? (foreground ? 2 : 5),
      factor: 2,
      minTimeout,
      maxTimeout: Math.max(minTimeout, Math.min(30_000, maxRetryTime / 4)),
      maxRetryTime,
      randomize: true,
      // An aborted call (its attempt abandoned at send_timeout) is over: no retry of it, or
      // the abandoned send would go on calling Slack, and hold the process, for half a minute.
      // The library hands retryConfig to p-retry as it is, which takes this hook; its own type
      // leaves it out (test/deliver/send-timeout.test.ts pins that it is honoured).
      // In the foreground, a refused connection is not retried: Slack (or SLACK_API_URL) is
      // not there, and retrying it held `alerts` for some 40 s before saying so.
      onFailedAttempt: (error: unknown) => {
        signals?.getStore()?.throwIfAborted();
        if (foreground && unreachable(error)) throw error;
      },
    } as RetryOptions,
    rejectRateLimitedCalls: true,
    timeout: options.timeoutMs ?? 30_000,
    // The original axios error holds the request config, Authorization header included.
    attachOriginalToWebAPIRequestError: false,
    // A rate limit is `paced`'s to report (with its wait): one warning per limit, not two.
    logger: slackLibraryLogger(
      options.logger,
      options.token,
      "Slack Web API client warning",
      RATE_LIMIT_DETAIL,
    ),
    requestInterceptor: bounded(signals),
  });
}

/**
 * The most of one answer read (axios's `maxContentLength`, counted as it arrives, after any
 * decompression): an answer past it fails the call and its connection is dropped. Not a few
 * KiB like a webhook's: a page of 200 messages of channel history (crash recovery) may
 * legitimately run to a few MB; a broken proxy's endless answer stops here.
 */
export const MAX_SLACK_ANSWER_BYTES = 8 * 1024 * 1024;

/**
 * Each request with the answer's size capped and, with `signals`, the signal of the call being
 * made, so that aborting the call aborts the request.
 */
function bounded(
  signals: AsyncLocalStorage<AbortSignal> | undefined,
): NonNullable<WebClientOptions["requestInterceptor"]> {
  return (config) => {
    const signal = signals?.getStore();
    return {
      ...config,
      maxContentLength: MAX_SLACK_ANSWER_BYTES,
      ...(signal ? { signal } : {}),
    };
  };
}

/** A request that reached no Slack: the connection refused, or the host not found. */
function unreachable(error: unknown): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown };
  return (
    code === ErrorCode.RequestError &&
    typeof message === "string" &&
    /\b(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH)\b/.test(message)
  );
}

/** The Retry-After (seconds) of a call Slack rate-limited, or null for any other failure. */
function rateLimitedFor(error: unknown): number | null {
  const coded = error as { code?: unknown; retryAfter?: unknown };
  return coded?.code === ErrorCode.RateLimitedError && typeof coded.retryAfter === "number"
    ? coded.retryAfter
    : null;
}

/** The library's "http request failed" text for a 429 (`rateLimitedErrorWithDelay`). */
const RATE_LIMIT_DETAIL = /A rate-limit has been reached/;
