import { setTimeout as delay } from "node:timers/promises";
import type { SharedLimits } from "../state/shared-limits.js";

// How many requests the whole process sends to the insights API, and when: one budget per
// process, shared by every caller of the client (digests, alerts, the project list), and by
// replicas through a shared window when the ledger is PostgreSQL. A refusal's Retry-After and
// a spent X-RateLimit window hold every caller, not just the one that was refused.

/**
 * The window the budget counts over: a minute and a second. The API counts requests as they
 * arrive, and arrival lags sending unevenly, so a budget of exactly 60 s let the 301st request
 * of 300 reach the API inside its minute (seen in the scale bench: 1-8 refusals a run, all
 * 60.5-62.8 s after the fire). The extra second keeps arrivals inside the API's count.
 */
const MINUTE_MS = 61_000;

/** What the API said about its limits on one answer, read off its headers. */
export interface RateLimitHeaders {
  /** Retry-After in ms from now (on a 429 or a 503). */
  retryAfterMs?: number | null;
  /** X-RateLimit-Limit: the requests the API allows a window (taken as a minute). */
  limit?: number | null;
  /** X-RateLimit-Remaining. */
  remaining?: number | null;
  /** X-RateLimit-Reset in ms from now. */
  resetMs?: number | null;
}

/** The name replicas share the API's budget under (state/shared-limits.ts). */
export const API_BUDGET = "insights-api";
/**
 * The whole seconds the replicas' window sums: 62, so that two requests it counts apart went
 * more than 61 s apart, as in MINUTE_MS. With 61 (any 60 s, to the millisecond) three
 * replicas saw 26 refusals in a run of 5,176 requests (scale bench, 2026-11-28).
 */
const SHARED_WINDOW_S = 62;

/**
 * A window of requests shared by replicas (see `postgres-shared-limits.ts`): grants up to
 * `wanted` of `limit` requests a minute at `atMs`, to be sent at once, and says how long to
 * wait when it grants none.
 */
export interface SharedRequestWindow {
  take(wanted: number, limit: number, atMs: number): Promise<{ granted: number; waitMs: number }>;
}

/** The API's budget in the limits replicas share. */
export function sharedApiWindow(limits: Pick<SharedLimits, "take">): SharedRequestWindow {
  return {
    take: (wanted, limit, atMs) => limits.take(API_BUDGET, wanted, limit, atMs, SHARED_WINDOW_S),
  };
}

export interface RequestBudgetOptions {
  /** `api.max_requests_per_minute`; null: the API's own X-RateLimit-Limit when it sends one. */
  maxPerMinute: number | null;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** Replicas' common window; none for a process alone. */
  shared?: SharedRequestWindow;
}

export interface RequestBudget {
  /**
   * A turn to send one request, in the order callers asked: null when it may go at once,
   * else a promise that resolves when it may.
   */
  take(): Promise<void> | null;
  /** What an answer's headers said about the limits: slows every caller from now on. */
  observe(headers: RateLimitHeaders): void;
}

/** A sliding minute: at most the limit of requests in any 60 s, first come first served. */
export function createRequestBudget(options: RequestBudgetOptions): RequestBudget {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => delay(ms));
  let limit = options.maxPerMinute;
  let pausedUntil = 0;
  // When each request of the last minute went, oldest first: kept without a limit too, so a
  // limit the API announces later counts what was already sent.
  const sent: number[] = [];
  const waiting: (() => void)[] = [];
  let pumping = false;
  let slept = 0;

  /** How long the next request must wait at `at` by this process's own count. */
  function waitAt(at: number): number {
    while (sent.length > 0 && (sent[0] as number) <= at - MINUTE_MS) sent.shift();
    const paused = Math.max(0, pausedUntil - at);
    if (limit === null || sent.length < limit) return paused;
    const oldest = sent[sent.length - limit] as number;
    return Math.max(paused, oldest + MINUTE_MS - at);
  }

  /** Lets waiting callers go one by one, as the window allows; one pump at a time. */
  async function pump(): Promise<void> {
    if (pumping) return;
    pumping = true;
    try {
      while (waiting.length > 0) {
        const at = Math.max(now(), slept);
        const wait = waitAt(at);
        if (wait > 0) {
          await sleep(wait);
          // A wait slept is served, whatever the clock says (a test's clock may stand still).
          slept = at + wait;
          continue;
        }
        let granted =
          limit === null ? waiting.length : Math.min(waiting.length, limit - sent.length);
        if (options.shared && limit !== null) {
          const answer = await options.shared.take(granted, limit, at);
          if (answer.granted === 0) {
            await sleep(Math.max(1, answer.waitMs));
            slept = at + Math.max(1, answer.waitMs);
            continue;
          }
          granted = Math.min(granted, answer.granted);
        }
        for (let i = 0; i < granted; i++) {
          sent.push(at);
          waiting.shift()?.();
        }
      }
    } finally {
      pumping = false;
    }
  }

  return {
    take() {
      // Nobody waiting and room in the minute: no turn of the event loop is spent (the next
      // request of a freed slot goes on the wire before the answer that freed it is read on).
      if (waiting.length === 0 && !pumping && !options.shared) {
        const at = Math.max(now(), slept);
        if (waitAt(at) === 0) {
          sent.push(at);
          return null;
        }
      }
      return new Promise<void>((resolve) => {
        waiting.push(resolve);
        void pump();
      });
    },
    observe(headers) {
      const at = now();
      if (options.maxPerMinute === null && headers.limit != null && headers.limit > 0) {
        limit = headers.limit;
      }
      if (headers.retryAfterMs != null)
        pausedUntil = Math.max(pausedUntil, at + headers.retryAfterMs);
      if (headers.remaining === 0 && headers.resetMs != null) {
        pausedUntil = Math.max(pausedUntil, at + headers.resetMs);
      }
    },
  };
}

/**
 * X-RateLimit-Reset in ms from `nowMs`: seconds from now, or (a number past a year's worth of
 * seconds) an epoch second. Null when absent or unreadable.
 */
export function parseRateLimitReset(value: string | undefined, nowMs: number): number | null {
  const seconds = parseCount(value);
  if (seconds === null) return null;
  return seconds > 365 * 86_400 ? Math.max(0, seconds * 1000 - nowMs) : seconds * 1000;
}

/** A header's whole number, or null. */
export function parseCount(value: string | undefined): number | null {
  if (value === undefined || !/^\s*\d+\s*$/.test(value)) return null;
  return Number(value);
}
