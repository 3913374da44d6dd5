import { setTimeout as delay } from "node:timers/promises";
import type { SharedLimits } from "../../state/shared-limits.js";

// Slack's rate limits as its docs publish them: per method, by tier (Tier 2 some 20 a minute,
// Tier 3 some 50, Tier 4 some 100, bursts allowed), and chat.postMessage about one a second
// per channel with short bursts. Each limit is a bucket of turns that fills at its rate; a
// 429's Retry-After empties the method's bucket until then, for every caller of it. Replicas
// on PostgreSQL also take each turn from the limit they share (`shared`): a minute's worth of a
// method in any 61 s, a channel's post one a second, with no burst, and a 429 one of them was
// given holds the others as well. A Slack app is the same for every replica (one token), so
// the budgets are named by method and channel alone.

/** Turns a minute by method; any other method is taken as Tier 3. */
const PER_MINUTE: Readonly<Record<string, number>> = {
  "conversations.list": 20, // Tier 2
  "conversations.history": 50, // Tier 3
  "conversations.replies": 50, // Tier 3
  "chat.update": 50, // Tier 3
  "chat.getPermalink": 100, // Tier 4
  "files.uploadV2": 20, // two Tier 4 calls and a Tier 2 file listing, as the library makes them
  "files.getUploadURLExternal": 100, // Tier 4
  "files.completeUploadExternal": 100, // Tier 4
};
const DEFAULT_PER_MINUTE = 50;
/** chat.postMessage in one channel: one a second, after a burst of this many. */
const POST_BURST = 10;
/** chat.postMessage in one channel, as replicas share it: one in each whole second. */
const ONE_A_SECOND = { limit: 1, seconds: 1 };

export interface SlackPacer {
  /** Waits for a turn of `method` (in `channel`, for chat.postMessage). */
  turn(method: string, channel?: string, signal?: AbortSignal): Promise<void>;
  /**
   * Slack refused a call of `method` for `retryAfterMs`: every caller of it waits as long, and
   * with `shared`, every replica's. Resolves once the replicas are told; never rejects (a
   * replica not told is refused by Slack in turn, and honours its own 429).
   */
  hold(method: string, channel: string | undefined, retryAfterMs: number): Promise<void>;
}

interface Bucket {
  tokens: number;
  at: number;
  heldUntil: number;
}

/**
 * Lets the event loop read what has come in (its poll phase) before going on: two immediates,
 * as one asked for in the poll phase runs before the next poll.
 */
const readWhatCame = async () => {
  for (let i = 0; i < 2; i++) await new Promise<void>((resolve) => setImmediate(resolve));
};

/** One pacer per Slack app (token): every destination of the process shares it. */
export function createSlackPacer(
  options: {
    now?: () => number;
    sleep?: (ms: number) => Promise<void>;
    /** The limits replicas share (state.url on PostgreSQL); none for a process alone. */
    shared?: SharedLimits;
  } = {},
): SlackPacer {
  const { shared } = options;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => delay(ms));
  const buckets = new Map<string, Bucket>();
  // Turns are handed out in order: a caller waits behind the ones that asked before it.
  const queues = new Map<string, Promise<void>>();

  const limitOf = (method: string, channel: string | undefined) =>
    method === "chat.postMessage" && channel !== undefined
      ? { key: `${method} ${channel}`, perMinute: 60, burst: POST_BURST, window: ONE_A_SECOND }
      : {
          key: method,
          perMinute: PER_MINUTE[method] ?? DEFAULT_PER_MINUTE,
          burst: PER_MINUTE[method] ?? DEFAULT_PER_MINUTE,
          window: null,
        };

  function bucketOf(key: string, burst: number): Bucket {
    let bucket = buckets.get(key);
    if (!bucket) {
      bucket = { tokens: burst, at: now(), heldUntil: 0 };
      buckets.set(key, bucket);
    }
    return bucket;
  }

  async function take(
    method: string,
    channel: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const { key, perMinute, burst, window } = limitOf(method, channel);
    const bucket = bucketOf(key, burst);
    const perTokenMs = 60_000 / perMinute;
    for (;;) {
      signal?.throwIfAborted();
      const at = Math.max(now(), bucket.at);
      bucket.tokens = Math.min(burst, bucket.tokens + (at - bucket.at) / perTokenMs);
      bucket.at = at;
      let wait =
        bucket.heldUntil > at
          ? bucket.heldUntil - at
          : bucket.tokens >= 1
            ? 0
            : Math.ceil((1 - bucket.tokens) * perTokenMs);
      if (wait === 0) {
        // Answers already in are read before the turn is given (asking the replicas reads
        // them too): a 429 that came while the loop was stalled holds this call as well. A
        // stalled loop runs its due timers before it reads its sockets, and a daemon at scale
        // stalls (event-loop delay up to 0.93 s at load 10-20): a turn given first went out
        // inside a Retry-After its daemon had been sent, 7 times in a run of 1,000 digests.
        if (shared) wait = await sharedTurn(key, window ?? { limit: perMinute }, at);
        else await readWhatCame();
        if (wait === 0 && bucket.heldUntil > Math.max(now(), bucket.at)) continue;
      }
      if (wait === 0) {
        bucket.tokens -= 1;
        return;
      }
      await sleep(wait);
      // A wait slept is served, whatever the clock says (a test's clock may stand still).
      bucket.tokens = Math.min(burst, bucket.tokens + wait / perTokenMs);
      bucket.at = Math.max(bucket.at, at + wait);
      if (bucket.heldUntil <= bucket.at) bucket.heldUntil = 0;
    }
  }

  /** 0 when the replicas' limit grants a turn of `key` at `at`, else how long to wait. */
  async function sharedTurn(
    key: string,
    window: { limit: number; seconds?: number },
    at: number,
  ): Promise<number> {
    if (!shared) return 0;
    const answer = await shared.take(`slack ${key}`, 1, window.limit, at, window.seconds);
    return answer.granted > 0 ? 0 : Math.max(1, answer.waitMs);
  }

  return {
    turn(method, channel, signal) {
      const { key } = limitOf(method, channel);
      const before = queues.get(key) ?? Promise.resolve();
      const mine = before.then(() => take(method, channel, signal));
      const settled = mine.catch(() => {});
      queues.set(key, settled);
      void settled.then(() => {
        if (queues.get(key) === settled) queues.delete(key);
      });
      return mine;
    },
    async hold(method, channel, retryAfterMs) {
      const { key, burst } = limitOf(method, channel);
      const bucket = bucketOf(key, burst);
      // Slack's bucket is empty: after the wait, turns come at the limit's rate, not as a
      // burst (each burst past Slack's own was another 429: 731 in a run of 1,000 digests).
      bucket.at = Math.max(bucket.at, now());
      bucket.tokens = 0;
      bucket.heldUntil = Math.max(bucket.heldUntil, bucket.at + retryAfterMs);
      await shared?.hold(`slack ${key}`, bucket.heldUntil).catch(() => {});
    },
  };
}
