import { fail, type Reply, scopeFor } from "./fake-slack-state.js";
import type { SlackRequest } from "./read-slack-request.js";

/** Failures and stalls the fake Slack produces on demand, per method. */

export type FakeFailure =
  | "ratelimited"
  | "not_in_channel"
  | "channel_not_found"
  | "invalid_auth"
  | "token_revoked"
  | "missing_scope"
  | "http500"
  /** An answer whose error text quotes the request's Authorization header, token and all. */
  | "echo_auth";

export interface FailOptions {
  /** Seconds in the Retry-After header of a `ratelimited` answer (default 1). */
  retryAfter?: number;
  /** How many calls in a row fail (default 1). */
  times?: number;
  /** How many calls of the method to let through before the failures start (default 0). */
  after?: number;
  /** The `needed` scope of a `missing_scope` answer (default: the one the method needs). */
  needed?: string;
  /**
   * Only calls on this channel (their `channel` or `channel_id`) fail, and only they count
   * towards `after`; calls on other channels pass untouched (default: every call).
   */
  channel?: string;
}

/** A request being held back; `arrived` resolves once it is in (and, by default, applied). */
export interface HeldCall {
  arrived: Promise<void>;
  /** Resolves once the call has taken effect (a held post is in the channel). */
  stored: Promise<void>;
  /**
   * Resolves once the request's connection closes while it is still held, unanswered: the
   * client gave up on it (an abort, its own timeout), or the fake closed.
   */
  cut: Promise<void>;
  /** Sends the answer. */
  release(): void;
  /** Never answers: the client waits until it gives up, dies, or the fake closes. */
  neverAnswer(): void;
}

export interface HoldOptions {
  /**
   * "now" (default): the call takes effect at once and only the answer is held — a post that
   * Slack made but whose answer never reached the client. "on-release": nothing happens until
   * `release()`.
   */
  effect?: "now" | "on-release";
  /**
   * The call takes effect this long after it arrives, whatever became of the client meanwhile
   * (Slack storing a post late); the answer is still held until `release()`.
   */
  storeAfterMs?: number;
  /** Only a call on this channel (its `channel` or `channel_id`) is held (default: the next call). */
  channel?: string;
}

/** A hold as the server sees it: call `arrived`, then await `answer` (false: stay silent). */
export interface Hold {
  channel: string | undefined;
  effect: "now" | "on-release" | "later";
  storeAfterMs: number;
  arrived: () => void;
  stored: () => void;
  /** The held request's connection closed before its answer. */
  cut: () => void;
  answer: Promise<boolean>;
}

interface QueuedFailure {
  error: FakeFailure;
  options: FailOptions;
  skip: number;
}

export interface Faults {
  failNext(method: string, error: FakeFailure, options?: FailOptions): void;
  holdNext(method: string, options?: HoldOptions): HeldCall;
  /** The failure answer due for this call of `method`, if any. */
  failureFor(method: string, request: SlackRequest, scopes: readonly string[]): Reply | null;
  /** The hold waiting for this call of `method` with these parameters, if any. */
  holdFor(method: string, params: Record<string, unknown>): Hold | undefined;
  /** Ends every hold unanswered (the fake is closing). */
  dropAll(): void;
}

export function createFaults(): Faults {
  const failures = new Map<string, QueuedFailure[]>();
  const holds = new Map<string, Hold[]>();
  const unsettled = new Set<(answer: boolean) => void>();

  return {
    failNext(method, error, options = {}) {
      const queue = failures.get(method) ?? [];
      for (let i = 0; i < (options.times ?? 1); i++) {
        queue.push({ error, options, skip: i === 0 ? (options.after ?? 0) : 0 });
      }
      failures.set(method, queue);
    },

    holdNext(method, options = {}) {
      let arrived!: () => void;
      let stored!: () => void;
      let settle!: (answer: boolean) => void;
      let cut!: () => void;
      const cutPromise = new Promise<void>((resolve) => {
        cut = resolve;
      });
      const arrivedPromise = new Promise<void>((resolve) => {
        arrived = resolve;
      });
      const storedPromise = new Promise<void>((resolve) => {
        stored = resolve;
      });
      const answer = new Promise<boolean>((resolve) => {
        settle = resolve;
      });
      holds.set(method, [
        ...(holds.get(method) ?? []),
        {
          channel: options.channel,
          effect: options.storeAfterMs !== undefined ? "later" : (options.effect ?? "now"),
          storeAfterMs: options.storeAfterMs ?? 0,
          arrived,
          stored,
          cut,
          answer,
        },
      ]);
      unsettled.add(settle);
      const finish = (answerIt: boolean) => {
        unsettled.delete(settle);
        settle(answerIt);
      };
      return {
        arrived: arrivedPromise,
        stored: storedPromise,
        cut: cutPromise,
        release: () => finish(true),
        neverAnswer: () => finish(false),
      };
    },

    failureFor(method, request, scopes) {
      const queue = failures.get(method) ?? [];
      const index = queue.findIndex((f) => onChannel(f.options.channel, request.params));
      const head = queue[index];
      if (!head) return null;
      if (head.skip > 0) {
        head.skip--;
        return null;
      }
      queue.splice(index, 1);
      return failureReply(method, head, request, scopes);
    },

    holdFor(method, params) {
      const queue = holds.get(method) ?? [];
      const index = queue.findIndex((h) => onChannel(h.channel, params));
      return index < 0 ? undefined : queue.splice(index, 1)[0];
    },

    dropAll() {
      for (const settle of unsettled) settle(false);
      unsettled.clear();
    },
  };
}

/** Whether a call with these parameters is on `channel` (any call is, when no channel is named). */
function onChannel(channel: string | undefined, params: Record<string, unknown>): boolean {
  return channel === undefined || (params.channel ?? params.channel_id) === channel;
}

function failureReply(
  method: string,
  { error, options }: QueuedFailure,
  request: SlackRequest,
  scopes: readonly string[],
): Reply {
  switch (error) {
    case "ratelimited":
      return {
        status: 429,
        headers: { "retry-after": String(options.retryAfter ?? 1) },
        body: { ok: false, error: "ratelimited" },
      };
    case "http500":
      return { status: 500, body: "<html><body>Internal Server Error</body></html>" };
    case "echo_auth":
      return fail(`invalid_request: could not use Authorization: Bearer ${request.token ?? ""}`);
    case "missing_scope":
      return fail("missing_scope", {
        needed: options.needed ?? scopeFor(method, request.params) ?? "chat:write",
        provided: scopes.join(","),
      });
    default:
      return fail(error);
  }
}
