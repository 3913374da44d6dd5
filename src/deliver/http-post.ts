import { setTimeout as delay } from "node:timers/promises";
import { WebhookDeliveryError } from "../errors.js";
import { readStart } from "../read-start.js";
import { parseRetryAfter, retryDelay } from "../retry-policy.js";
import { redactSecrets, type Secret, secretForms } from "../secret.js";

// One POST to a URL destination (a Teams workflow, a signed webhook), with the delivery rules
// every destination follows: a 429 or a 5xx is tried again within the send, after the
// Retry-After the receiver asked for (or a short backoff); a Retry-After longer than the send
// may wait, a timeout or a lost connection ends the send as worth retrying later (the
// daemon's retry schedule takes it, with the same idempotency key); any other 4xx is the
// destination's to explain, and is not retried. The URL is revealed only to `fetch`: errors
// name the destination by its id.

/** What a destination says about an answer that is not 2xx: the words and the verdict. */
export type DescribeFailure = (failure: {
  status: number | null;
  /** The start of the answer's body, or the network error's message. */
  detail: string;
  /** A 3xx's Location, as its origin alone (never its path or query); null when it has none. */
  redirect?: string | null;
}) => { message: string; retry: boolean };

export interface PostRequest {
  url: Secret;
  body: string;
  /** The headers of each attempt (a signature's timestamp is taken afresh each time). */
  headers: () => Record<string, string>;
  /** The destination's id, for errors and logs. */
  destination: string;
  describe: DescribeFailure;
}

export interface PostOptions {
  /** How long one attempt may take. */
  timeoutMs: number;
  /** Attempts within one send on 429 and 5xx (default 3). */
  attempts?: number;
  /** The longest wait between them; a longer Retry-After ends the send, to be retried later. */
  maxWaitMs?: number;
  sleep?: (ms: number) => Promise<void>;
  /** The wall clock, for a Retry-After given as a date. */
  now?: () => number;
}

const DEFAULT_ATTEMPTS = 3;
const DEFAULT_MAX_WAIT_MS = 30_000;
/**
 * Between attempts at one receiver: 1 s, then 2 s, then 4 s, the whole wait each time (a post is
 * one caller, not a crowd to spread out), unless its Retry-After says otherwise.
 */
const POST_BACKOFF = { baseMs: 1000, capMs: Number.POSITIVE_INFINITY };
const NO_JITTER = 1;

/** The most of a failure's body read: enough for a receiver's reason, never a flood. */
const BODY_BYTES_READ = 4096;
/** The most of it quoted in an error, the log, the ledger and history. */
const EXCERPT_CHARS = 200;

/** Posts `body`; resolves with the 2xx status, or throws a WebhookDeliveryError with a verdict. */
export async function postWithRetries(request: PostRequest, options: PostOptions): Promise<number> {
  const attempts = options.attempts ?? DEFAULT_ATTEMPTS;
  const sleep = options.sleep ?? ((ms: number) => delay(ms));
  const now = options.now ?? Date.now;
  for (let attempt = 1; ; attempt++) {
    let answer: Response;
    const headers = request.headers();
    try {
      answer = await fetch(request.url.reveal(), {
        method: "POST",
        headers,
        body: request.body,
        // A redirect would take the signed body (and the signature) to wherever it points.
        redirect: "manual",
        signal: AbortSignal.timeout(options.timeoutMs),
      });
    } catch (error) {
      // The request may have landed: no second try within this send (ADR 0005).
      throw failure(request, null, networkWords(error, options.timeoutMs));
    }
    if (answer.status >= 300 && answer.status < 400) {
      await answer.body?.cancel().catch(() => {});
      const redirect = originOf(answer.headers.get("location"), request.url);
      throw failure(request, answer.status, "", redirect);
    }
    if (answer.ok) {
      // What a receiver says beside a 2xx is not read: it could be endless.
      await answer.body?.cancel().catch(() => {});
      return answer.status;
    }
    const detail = bodyExcerpt(await readStart(untilCut(answer.body), BODY_BYTES_READ), [
      ...secretForms(request.url.reveal()),
      ...sentValues(headers),
    ]);
    const passing = answer.status === 429 || answer.status >= 500;
    if (!passing) throw failure(request, answer.status, detail);
    const asked = parseRetryAfter(answer.headers.get("retry-after") ?? undefined, now());
    const wait = retryDelay(attempt, asked, NO_JITTER, POST_BACKOFF);
    if (attempt >= attempts || wait > (options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS)) {
      throw failure(request, answer.status, detail);
    }
    await sleep(wait);
  }
}

/** A body's chunks until it ends or is cut short: what arrived is what there is to quote. */
async function* untilCut(body: ReadableStream<Uint8Array> | null): AsyncIterable<Uint8Array> {
  if (!body) return;
  try {
    yield* body;
  } catch {
    // Cut short mid-read: the chunks before stand.
  }
}

/**
 * What of a receiver's body may be quoted: control and format characters (escapes, a
 * right-to-left override) removed, `sent` values redacted (a receiver may echo our headers),
 * then cut to EXCERPT_CHARS — in that order, so no cut leaves a piece of a secret.
 */
export function bodyExcerpt(text: string, sent: readonly string[]): string {
  const plain = text
    .replace(/[\p{Cc}\p{Cf}]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
  const redacted = redactSecrets(plain, sent, MIN_SENT_LENGTH);
  return redacted.length <= EXCERPT_CHARS ? redacted : `${redacted.slice(0, EXCERPT_CHARS - 1)}…`;
}

/** Shorter header values (a timestamp's few digits aside) are not worth garbling a message for. */
const MIN_SENT_LENGTH = 8;

/** The values of the headers we sent that a receiver must not get quoted back: all but the type. */
function sentValues(headers: Record<string, string>): string[] {
  return Object.entries(headers)
    .filter(([name]) => name.toLowerCase() !== "content-type")
    .map(([, value]) => value);
}

/** The origin a Location points at (resolved against the URL asked), or null without one. */
function originOf(location: string | null, url: Secret): string | null {
  if (!location) return null;
  try {
    const origin = new URL(location, url.reveal()).origin;
    return origin === "null" ? null : origin;
  } catch {
    return null;
  }
}

function failure(
  request: PostRequest,
  status: number | null,
  detail: string,
  redirect: string | null = null,
): WebhookDeliveryError {
  const { message, retry } = request.describe({ status, detail, redirect });
  return new WebhookDeliveryError(message, status, { destination: request.destination }, { retry });
}

function networkWords(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
    return `no answer within ${timeoutMs} ms`;
  }
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = (cause as { code?: unknown })?.code;
  return typeof code === "string" ? code : cause instanceof Error ? cause.message : String(cause);
}

/**
 * Whether a URL destination answers, without posting to it (`check-config --online`): a GET,
 * which a workflow or a receiver refuses (405) or ignores. An answer that means "nothing is
 * there" (404, 410), "not you" (401, 403), a 5xx or no answer is a failure, in the destination's
 * words; any other answer shows the URL is live.
 */
export async function probeUrl(
  request: Pick<PostRequest, "url" | "describe">,
  timeoutMs: number,
): Promise<{ ok: boolean; message: string }> {
  let status: number;
  try {
    const answer = await fetch(request.url.reveal(), {
      method: "GET",
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
    });
    await answer.body?.cancel();
    status = answer.status;
  } catch (error) {
    return {
      ok: false,
      message: request.describe({ status: null, detail: networkWords(error, timeoutMs) }).message,
    };
  }
  if ([401, 403, 404, 410].includes(status) || status >= 500) {
    return { ok: false, message: request.describe({ status, detail: "" }).message };
  }
  return { ok: true, message: `answers (HTTP ${status} to a GET; nothing was posted)` };
}
