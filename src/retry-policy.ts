// When to try a request again, and how long to wait first: one policy for every client (the
// insights API, the Teams and webhook posts; Slack's writes are retried by the delivery loop,
// its reads by its SDK). Pure: the caller passes the clock reading and the random draw, so tests
// check every wait without waiting.

/** Statuses worth another attempt; 400, 401, 403 and 404 never are. */
const RETRYABLE_STATUSES = new Set([429, 500, 502, 503, 504]);

/** undici and socket error codes of resets and timeouts: transient, so retried. */
const RETRYABLE_CODES = new Set([
  "TIMEOUT", // our own overall deadline (see insights/send-attempt.ts)
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EAI_AGAIN",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_RES_CONTENT_LENGTH_MISMATCH",
]);

export interface BackoffOptions {
  /** The first retry waits up to this long. */
  baseMs: number;
  /** Exponential growth stops here; a server's Retry-After may still ask for longer. */
  capMs: number;
}

const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 500, capMs: 30_000 };

/** Whether a response status is transient (rate limit or server trouble). */
export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUSES.has(status);
}

/** Whether a transport error code (reset, timeout) is transient. */
export function isRetryableErrorCode(code: string): boolean {
  return RETRYABLE_CODES.has(code);
}

/**
 * The wait before attempt `attempt + 1` after a failed `attempt` (1-based): full jitter, i.e.
 * uniform in [0, min(cap, base·2^(attempt−1))), so clients that failed together spread out.
 */
export function backoffDelay(attempt: number, random: number, options = DEFAULT_BACKOFF): number {
  const ceiling = Math.min(options.capMs, options.baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random * ceiling);
}

/**
 * A Retry-After header in milliseconds from `nowMs`: delta-seconds or an HTTP-date. A date in
 * the past means "now" (0); null when the header is absent or unreadable.
 */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | null {
  if (value === undefined) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // HTTP-dates name a weekday and end in GMT (RFC 9110 §5.6.7); bare numbers-with-junk are not dates.
  if (!/[a-z]/i.test(text)) return null;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - nowMs);
}

/** The wait before the next attempt: the server's Retry-After when it gave one, else backoff. */
export function retryDelay(
  attempt: number,
  retryAfterMs: number | null,
  random: number,
  options = DEFAULT_BACKOFF,
): number {
  return retryAfterMs ?? backoffDelay(attempt, random, options);
}
