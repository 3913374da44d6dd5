import type { IncomingHttpHeaders } from "node:http";
import type { Dispatcher } from "undici";
import { type BodyStart, bodyStart } from "../read-start.js";

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
  /** Name, value, name, value…: undici takes a flat list as it is. */
  headers: string[];
  /** Deadline for the whole attempt: connect, headers and body together. */
  timeoutMs: number;
  /** A body longer than this is not read: the connection is dropped instead. */
  maxBodyBytes: number;
}

/**
 * One GET, read to the end, within `timeoutMs` whatever the dispatcher does. Never follows
 * redirects (a dispatcher does not unless told to), so the key only goes to the configured
 * origin. Failures come back as a code; the undici error itself is dropped, so nothing of the
 * request can leak through it.
 *
 * Sent with the dispatcher's `dispatch` and a handler of our own rather than `request`: no
 * body stream, abort signal or promise of undici's per attempt, only the chunks kept here.
 */
export function sendAttempt(request: AttemptRequest): Promise<AttemptOutcome> {
  return new Promise((resolve) => {
    const handler = new AttemptHandler(request.maxBodyBytes, resolve);
    // undici honours an abort only once a request has a connection: a request its pool keeps
    // queued (after a header it refused used up every connection) would wait forever. This
    // timer is the attempt's own deadline, so the attempt always ends.
    handler.timer = setTimeout(() => handler.stop(TIMED_OUT), request.timeoutMs);
    try {
      request.dispatcher.dispatch(
        {
          origin: request.origin,
          path: request.path,
          method: "GET",
          headers: request.headers,
          headersTimeout: request.timeoutMs,
          bodyTimeout: request.timeoutMs,
        },
        handler,
      );
    } catch (error) {
      handler.stop({ kind: "failure", reason: errorCode(error) });
    }
  });
}

const TIMED_OUT: AttemptOutcome = { kind: "failure", reason: "TIMEOUT" };

/**
 * undici's handler for one attempt (its controller API): keeps the body within its cap and
 * settles the attempt once, on the end, an error, the cap or the deadline, whichever comes
 * first. Nothing here throws into undici's parser.
 */
class AttemptHandler implements Dispatcher.DispatchHandler {
  timer: NodeJS.Timeout | undefined;
  private controller: Dispatcher.DispatchController | null = null;
  private settled = false;
  private status = 0;
  private headers: IncomingHttpHeaders = {};
  /** A 2xx body, whole (null until a 2xx starts). */
  private chunks: Buffer[] | null = null;
  /** Bytes of the body so far, of either kind. */
  private size = 0;
  /** The start of any other status's body, for its error. */
  private start: BodyStart | null = null;
  /** Whether `start` holds all it keeps: later chunks are only counted. */
  private startFull = false;

  constructor(
    private readonly maxBodyBytes: number,
    private readonly resolve: (outcome: AttemptOutcome) => void,
  ) {}

  /** Settles the attempt with `outcome`, and drops the connection if the answer is unfinished. */
  stop(outcome: AttemptOutcome): void {
    if (this.settled) return;
    this.settle(outcome);
    // Before a connection, the abort waits for `onRequestStart`.
    this.controller?.abort(new Error(outcome.kind));
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.settled) controller.abort(new Error("settled"));
  }

  onResponseStart(
    controller: Dispatcher.DispatchController,
    status: number,
    headers: IncomingHttpHeaders,
  ): void {
    if (this.settled || status < 200) return;
    this.status = status;
    this.headers = headers;
    if (status >= 300) {
      this.start = bodyStart(ERROR_BODY_BYTES);
    } else if (Number(headers["content-length"]) > this.maxBodyBytes) {
      this.tooLarge(controller);
    } else {
      this.chunks = [];
    }
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.settled) return;
    if (this.start) {
      // The first few KiB are quoted; the rest is read and dropped so the connection is kept
      // for the retry (a proxy's error page runs to a few KB), up to a limit past which it is
      // given up: the status decides, and the rest could be endless.
      if (this.startFull || !this.start.add(chunk)) this.startFull = true;
      this.size += chunk.length;
      if (this.size > ERROR_BODY_DRAIN_BYTES) {
        this.settle(this.response(this.start.text()));
        controller.pause();
        controller.abort(new Error("read enough"));
      }
    } else if (this.chunks) {
      this.size += chunk.length;
      if (this.size > this.maxBodyBytes) this.tooLarge(controller);
      else this.chunks.push(chunk);
    }
  }

  onResponseEnd(): void {
    if (this.settled) return;
    const text = this.start
      ? this.start.text()
      : this.chunks
        ? Buffer.concat(this.chunks, this.size).toString("utf8")
        : "";
    this.settle(this.response(text));
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, error: Error): void {
    // Also called without a controller, when the dispatcher refuses the request at once.
    this.settle({ kind: "failure", reason: errorCode(error) });
  }

  private settle(outcome: AttemptOutcome): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    this.chunks = null;
    this.resolve(outcome);
  }

  /** Refuses a body past the cap, declared or counted; undici then drops the connection. */
  private tooLarge(controller: Dispatcher.DispatchController): void {
    this.settle({ kind: "too-large", status: this.status });
    // Paused too, so undici's parser stops at this chunk rather than read on after the abort.
    controller.pause();
    controller.abort(new Error("too large"));
  }

  private response(text: string): AttemptOutcome {
    const rateLimit: { limit?: string; remaining?: string; reset?: string } = {};
    const limit = header(this.headers, "x-ratelimit-limit");
    if (limit !== undefined) rateLimit.limit = limit;
    const remaining = header(this.headers, "x-ratelimit-remaining");
    if (remaining !== undefined) rateLimit.remaining = remaining;
    const reset = header(this.headers, "x-ratelimit-reset");
    if (reset !== undefined) rateLimit.reset = reset;
    return {
      kind: "response",
      status: this.status,
      retryAfter: header(this.headers, "retry-after"),
      rateLimit,
      text,
    };
  }
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The most of an error's body kept: its `error` string is short, and the status decides. */
const ERROR_BODY_BYTES = 4096;

/** The most of an error's body read to its end, so its connection serves the next request. */
const ERROR_BODY_DRAIN_BYTES = 64 * 1024;

function errorCode(error: unknown): string {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (typeof current !== "object") break;
    if ("code" in current && typeof current.code === "string") return current.code;
    current = "cause" in current ? current.cause : undefined;
  }
  return error instanceof Error ? error.name : "UNKNOWN";
}
