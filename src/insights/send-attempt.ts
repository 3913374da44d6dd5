import type { Dispatcher } from "undici";
import { readStart } from "../read-start.js";

/**
 * What one HTTP attempt produced: a whole response, a body past the size cap (left unread),
 * or the code of the failure that cut it short.
 */
export type AttemptOutcome =
  | {
      kind: "response";
      status: number;
      retryAfter: string | undefined;
      /** X-RateLimit-Limit, -Remaining and -Reset as sent (see request-budget.ts). */
      rateLimit: { limit?: string; remaining?: string; reset?: string };
      text: string;
    }
  | { kind: "too-large"; status: number }
  | { kind: "failure"; reason: string };

export interface AttemptRequest {
  dispatcher: Dispatcher;
  origin: string;
  /** Path and query, e.g. `/api/external/v1/projects?page_number=1&page_size=100`. */
  path: string;
  headers: Record<string, string>;
  /** Deadline for the whole attempt: connect, headers and body together. */
  timeoutMs: number;
  /** A body longer than this is not read: the connection is dropped instead. */
  maxBodyBytes: number;
}

/**
 * One GET, read to the end, within `timeoutMs` whatever the dispatcher does. Never follows
 * redirects (undici's `request` does not unless told to), so the key only goes to the
 * configured origin. Failures come back as a code; the undici error itself is dropped, so
 * nothing of the request can leak through it.
 */
export async function sendAttempt(request: AttemptRequest): Promise<AttemptOutcome> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  // undici honours the abort signal only once a request has a connection: a request its pool
  // keeps queued (after a header it refused used up every connection) would wait forever.
  // This timer is the attempt's own deadline, so the attempt always ends.
  const deadline = new Promise<AttemptOutcome>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve({ kind: "failure", reason: "TIMEOUT" });
    }, request.timeoutMs);
  });
  try {
    return await Promise.race([exchange(request, controller.signal), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

async function exchange(request: AttemptRequest, signal: AbortSignal): Promise<AttemptOutcome> {
  try {
    const response = await request.dispatcher.request({
      origin: request.origin,
      path: request.path,
      method: "GET",
      headers: request.headers,
      signal,
      headersTimeout: request.timeoutMs,
      bodyTimeout: request.timeoutMs,
    });
    const text = isSuccess(response.statusCode)
      ? await readCapped(response, request.maxBodyBytes)
      : await readStart(response.body, ERROR_BODY_BYTES);
    if (text === null) return { kind: "too-large", status: response.statusCode };
    const header = (name: string): string | undefined => {
      const value = response.headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    const rateLimit: { limit?: string; remaining?: string; reset?: string } = {};
    for (const [field, name] of RATE_LIMIT_HEADERS) {
      const value = header(name);
      if (value !== undefined) rateLimit[field] = value;
    }
    return {
      kind: "response",
      status: response.statusCode,
      retryAfter: header("retry-after"),
      rateLimit,
      text,
    };
  } catch (error) {
    if (signal.aborted) return { kind: "failure", reason: "TIMEOUT" };
    return { kind: "failure", reason: errorCode(error) };
  }
}

const RATE_LIMIT_HEADERS = [
  ["limit", "x-ratelimit-limit"],
  ["remaining", "x-ratelimit-remaining"],
  ["reset", "x-ratelimit-reset"],
] as const;

/** The most of an error's body read: its `error` string is short, and the status decides. */
const ERROR_BODY_BYTES = 4096;

function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

/**
 * The body as text, or null once it passes `maxBytes` (declared or counted), after which the
 * body is destroyed so undici drops the connection instead of reading the rest. Counted here
 * rather than with undici's `maxResponseSize`, which a dispatcher handed in would not carry.
 */
async function readCapped(
  response: Dispatcher.ResponseData,
  maxBytes: number,
): Promise<string | null> {
  if (Number(response.headers["content-length"]) > maxBytes) {
    response.body.destroy();
    return null;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      response.body.destroy();
      return null;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function errorCode(error: unknown): string {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (typeof current !== "object") break;
    if ("code" in current && typeof current.code === "string") return current.code;
    current = "cause" in current ? current.cause : undefined;
  }
  return error instanceof Error ? error.name : "UNKNOWN";
}
