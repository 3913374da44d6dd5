import { setTimeout as delay, setImmediate as yieldToLoop } from "node:timers/promises";
import type { Dispatcher, Pool } from "undici";
import { MalformedResponseError, UpstreamError } from "../errors.js";
import {
  isRetryableErrorCode,
  isRetryableStatus,
  parseRetryAfter,
  retryDelay,
} from "../retry-policy.js";
import type { Secret } from "../secret.js";
import { checkBaseUrl } from "./check-base-url.js";
import { closePool } from "./close-pool.js";
import {
  errorForStatus,
  errorForTooLarge,
  errorForTransport,
  type RequestTarget,
} from "./http-error.js";
import { insightsQueryString } from "./insights-query-string.js";
import { parseProjectsPage } from "./projects-page-schema.js";
import { readBody } from "./read-body.js";
import {
  createRequestBudget,
  parseCount,
  parseRateLimitReset,
  type RateLimitHeaders,
  type RequestBudget,
} from "./request-budget.js";
import { parseInsightsBody } from "./response-schema.js";
import { createSemaphore } from "./semaphore.js";
import { type AttemptOutcome, sendAttempt } from "./send-attempt.js";
import type { Parsed } from "./shape-problem.js";
import type { InsightsApi, InsightsQuery, ProjectInsights, ProjectSummary } from "./types.js";
import { loadUndiciPool } from "./undici-pool.js";

/** One HTTP attempt, as reported to `onRequest` (for metrics). */
export interface RequestInfo {
  /** The API path without the query, e.g. `/projects/abc/insights`. */
  path: string;
  status: number | "error";
  durationMs: number;
  /** 1 for the first try. */
  attempt: number;
}

export interface InsightsClientOptions {
  /** INSIGHTS_API_URL; checked with `checkBaseUrl` before any request. */
  baseUrl: string;
  key: Secret;
  /** Requests in flight at once across every call of this client (default 4). */
  concurrency?: number;
  /** Deadline of one attempt: connect, headers and body together (default 30000). */
  timeoutMs?: number;
  /** Tries per request, the first included (default 6). */
  maxAttempts?: number;
  /** A response body longer than this is refused unread (default 8 MB, `api.max_response_bytes`). */
  maxResponseBytes?: number;
  sleep?: (ms: number) => Promise<void>;
  /** Epoch milliseconds; Retry-After dates are measured against it. */
  now?: () => number;
  /** Uniform in [0, 1), for backoff jitter. */
  random?: () => number;
  /** Used instead of the client's own keep-alive pool; the caller closes it. */
  dispatcher?: Dispatcher;
  onRequest?: (info: RequestInfo) => void;
  /**
   * The process's request budget (create-deps builds one from `api.max_requests_per_minute`);
   * without it, the client keeps one of its own, as the API's headers set it.
   */
  budget?: RequestBudget;
}

export interface InsightsClient extends InsightsApi {
  /** Closes the keep-alive pool (not a dispatcher passed in): after requests in flight, or by force. */
  close(): Promise<void>;
}

/** The list did not end where the API said, or at all: it is not paginating as documented. */
function tooManyPages(target: RequestTarget): MalformedResponseError {
  return new MalformedResponseError(
    `the list of projects did not end after ${MAX_PAGES} pages of ${PAGE_SIZE} — the API is not paginating as documented`,
    { status: 200, path: target.path, field: "pagination" },
  );
}

/** What an answer's headers say about the API's limits, for the budget. */
function rateLimitOf(
  response: Extract<AttemptOutcome, { kind: "response" }>,
  at: number,
): RateLimitHeaders {
  return {
    retryAfterMs: isRetryableStatus(response.status)
      ? parseRetryAfter(response.retryAfter, at)
      : null,
    limit: parseCount(response.rateLimit.limit),
    remaining: parseCount(response.rateLimit.remaining),
    resetMs: parseRateLimitReset(response.rateLimit.reset, at),
  };
}

const PAGE_SIZE = 100;
const MAX_PAGES = 1000;
/** A Retry-After longer than this is not waited out: the run fails instead of hanging. */
const MAX_RETRY_AFTER_MS = 5 * 60_000;
/** Far above any insights body (a 90-day range is some 100 kB), far below trouble for memory. */
export const DEFAULT_MAX_RESPONSE_BYTES = 8_000_000;

/** The insights API client: one keep-alive pool, a shared concurrency limit, retries, typed errors. */
export function createInsightsClient(options: InsightsClientOptions): InsightsClient {
  const base = new URL(checkBaseUrl(options.baseUrl));
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 4));
  const timeoutMs = options.timeoutMs ?? 30_000;
  const maxAttempts = Math.max(1, Math.floor(options.maxAttempts ?? 6));
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const sleep = options.sleep ?? ((ms: number) => delay(ms));
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  // No connection cap of its own: the semaphore below is the one concurrency limit, and it
  // also holds for a dispatcher handed in. The pool never opens more sockets than requests in
  // flight, and an attempt's deadline starts once it has its turn, not while it queues. It is
  // made (and undici loaded) on the first request: a daemon at rest holds neither.
  let ownPool: Promise<Pool> | null = null;
  const dispatcher = (): Promise<Dispatcher> => {
    if (options.dispatcher) return Promise.resolve(options.dispatcher);
    ownPool ??= loadUndiciPool().then(
      (Pool) =>
        new Pool(base.origin, {
          // HTTP/1.1 only, whatever undici's default becomes: the CLI's bundle leaves out
          // Node's http2 (scripts/bundle-cli.ts).
          allowH2: false,
          keepAliveTimeout: 10_000,
          connect: { timeout: Math.min(10_000, timeoutMs) },
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        }),
    );
    return ownPool;
  };
  const semaphore = createSemaphore(concurrency);
  const budget = options.budget ?? createRequestBudget({ maxPerMinute: null, now, sleep });
  const key = options.key;
  let closing: Promise<void> | null = null;

  /**
   * One attempt, within the shared concurrency limit, reported to `onRequest`. Its answer goes
   * back to the caller only after a turn of the event loop: the slot it freed has passed to the
   * next request waiting, whose write undici makes on that turn (it reuses a kept-alive socket
   * only after the loop's I/O has run), so the caller's work on this answer — parsing it, a
   * digest's report — no longer holds the next request off the wire.
   */
  async function attemptOnce(
    target: RequestTarget,
    query: string,
    attempt: number,
    urgent: boolean,
  ) {
    const started = performance.now();
    // Taken before the semaphore, so a task handed the slot sends its request at once.
    const via = await dispatcher();
    // The budget's turn is taken with the semaphore's, right before the request goes: a turn
    // taken earlier and spent later could crowd more than the budget into one minute.
    const outcome = await semaphore.run(
      async () => {
        const turn = budget.take();
        if (turn) await turn;
        const sent = await sendAttempt({
          dispatcher: via,
          origin: base.origin,
          path: `${base.pathname}${target.path}${query}`,
          headers: ["x-api-key", key.reveal(), "accept", "application/json"],
          timeoutMs,
          maxBodyBytes: maxResponseBytes,
        });
        // Told to the budget before the slot passes on, so the next request already waits.
        if (sent.kind === "response") budget.observe(rateLimitOf(sent, now()));
        return sent;
      },
      { urgent },
    );
    options.onRequest?.({
      path: target.path,
      status: outcome.kind === "failure" ? "error" : outcome.status,
      durationMs: performance.now() - started,
      attempt,
    });
    await yieldToLoop();
    return outcome;
  }

  /**
   * GETs `target.path` with retries; returns the checked 2xx body or throws the typed error.
   * An `urgent` request goes before the requests waiting for their turn.
   */
  async function get<T>(
    target: RequestTarget,
    query: string,
    parse: (body: unknown) => Parsed<T>,
    urgent = false,
  ): Promise<T> {
    if (closing) throw new UpstreamError("the insights client is closed", { path: target.path });
    for (let attempt = 1; ; attempt++) {
      const outcome = await attemptOnce(target, query, attempt, urgent);
      let retryAfter: number | null = null;
      if (outcome.kind === "response" && outcome.status >= 200 && outcome.status < 300) {
        const body = readBody(outcome.text, target, attempt, parse);
        if (body.ok) return body.value;
        // A body cut short by a proxy, or a hiccup upstream: worth another try, like a 5xx.
        if (attempt >= maxAttempts) throw body.error;
      } else if (outcome.kind === "response") {
        if (!isRetryableStatus(outcome.status) || attempt >= maxAttempts) {
          throw errorForStatus(outcome.status, outcome.text, target, attempt);
        }
        retryAfter = parseRetryAfter(outcome.retryAfter, now());
        if (retryAfter !== null && retryAfter > MAX_RETRY_AFTER_MS) {
          throw new UpstreamError(
            `the insights API asked to wait ${Math.ceil(retryAfter / 1000)}s before GET ${target.path} again — too long to wait; try again later`,
            {
              status: outcome.status,
              path: target.path,
              attempts: attempt,
              retryAfterMs: retryAfter,
            },
          );
        }
      } else if (outcome.kind === "too-large") {
        throw errorForTooLarge(outcome.status, target, attempt, maxResponseBytes);
      } else if (!isRetryableErrorCode(outcome.reason) || attempt >= maxAttempts) {
        throw errorForTransport(outcome.reason, target, attempt, base.host);
      }
      // A Retry-After is waited out by the budget, by every caller at once; backoff by this one.
      if (retryAfter === null) await sleep(retryDelay(attempt, retryAfter, random()));
    }
  }

  return {
    getInsights(projectId: string, query: InsightsQuery): Promise<ProjectInsights> {
      const target: RequestTarget = {
        path: `/projects/${encodeURIComponent(projectId)}/insights`,
        projectId,
        timezone: query.timezone,
        startDate: query.startDate,
        endDate: query.endDate,
      };
      return get(target, insightsQueryString(query), (body) => parseInsightsBody(body, projectId));
    },

    async listProjects(): Promise<ProjectSummary[]> {
      const target: RequestTarget = { path: "/projects", projectId: null };
      // Urgent: every digest waits for the names, behind a cycle's worth of insights requests.
      const page = (n: number) =>
        get(target, `?page_number=${n}&page_size=${PAGE_SIZE}`, parseProjectsPage, true);
      const first = await page(1);
      const pages = [first];
      if (first.projects.length > 0 && first.totalPages !== null && first.totalPages > 1) {
        // The first page says how many there are: the rest are asked for at once, within the
        // concurrency limit and the request budget like any request.
        if (first.totalPages > MAX_PAGES) throw tooManyPages(target);
        const rest = Array.from({ length: first.totalPages - 1 }, (_, i) => page(i + 2));
        pages.push(...(await Promise.all(rest)));
      } else if (first.projects.length > 0 && first.totalPages === null) {
        // No page count: one page after another, until an empty one.
        for (let n = 2; ; n++) {
          if (n > MAX_PAGES) throw tooManyPages(target);
          const next = await page(n);
          if (next.projects.length === 0) break;
          pages.push(next);
        }
      }
      // Pages can shift while we read them; the first sighting of an id wins.
      const byId = new Map<string, ProjectSummary>();
      for (const { projects } of pages) {
        for (const project of projects) if (!byId.has(project.id)) byId.set(project.id, project);
      }
      return [...byId.values()];
    },

    close(): Promise<void> {
      closing ??= ownPool ? ownPool.then((pool) => closePool(pool, timeoutMs)) : Promise.resolve();
      return closing;
    },
  };
}
