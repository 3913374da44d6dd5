import type { Reply } from "./fake-slack-state.js";

// Slack's rate limits as the fake enforces them when asked (`rateLimits: true`): per method by
// tier (Tier 2 20 a minute, Tier 3 50, Tier 4 100), chat.postMessage one a second per channel
// after a burst of 3, each a bucket that refills at its rate. Over the limit, the call is
// answered 429 with Retry-After (whole seconds, as Slack sends it). A call of the same method
// (and channel) that arrives before a Retry-After it was given has run out, and later than
// IN_FLIGHT_MS after that 429 was answered (sooner, it may have been sent before the 429 was
// read; "arrives" is the earliest it can have, loop-clock.ts, not when a stalled fake read it),
// is counted as unhonoured when its caller (its token) was given that 429: a client that
// honours every Retry-After it is given sends none (each 429 is judged on its own: a retry
// after its own Retry-After is honest even if a sibling call got a later one). From another caller (a replica with a token of its own, not told)
// it is counted apart, as unwarned.

const PER_MINUTE: Readonly<Record<string, number>> = {
  "conversations.list": 20,
  "conversations.info": 50,
  "conversations.history": 50,
  "conversations.replies": 50,
  "chat.update": 50,
  "files.getUploadURLExternal": 20,
  "files.completeUploadExternal": 20,
  "auth.test": 100,
};
const DEFAULT_PER_MINUTE = 50;
/** Calls this soon after a 429 were taken to be on the wire already, not to ignore it. */
export const IN_FLIGHT_MS = 100;
/** chat.postMessage in one channel: this many at once, then one a second. */
export const POST_BURST = 3;

/** One 429 the fake answered. */
export interface RateLimited {
  method: string;
  channel: string | null;
  at: number;
  retryAfterS: number;
  /** The bot token the call came with (callers told apart by it). */
  caller: string;
  /** For a call counted late: the earliest it can have arrived, when before `at`. */
  arrivedAfter?: number;
  /** For a call counted late: when the 429 it ignored was answered. */
  refusedAt?: number;
}

export interface SlackLimits {
  /**
   * The 429 to answer for this call, or null to let it through; counts unhonoured calls.
   * `arrivedAfter`: the earliest the call can have arrived (epoch ms), when before now.
   */
  check(
    method: string,
    channel: string | null,
    caller?: string,
    arrivedAfter?: number,
  ): Reply | null;
  limited: RateLimited[];
  /** Calls that came while a Retry-After their caller was given for the method (and channel) still ran. */
  unhonoured: RateLimited[];
  /** Calls that came in a Retry-After of their method (and channel) from a caller given none of it. */
  unwarned: RateLimited[];
}

interface Bucket {
  tokens: number;
  at: number;
  /** Until when a Retry-After given for this bucket runs. */
  retryUntil: number;
  /** The Retry-After windows each caller was given, [answered, ends) in ms, still running. */
  refused: Map<string, [number, number][]>;
}

/** The limits of one fake workspace, on the clock `now` (epoch ms). */
export function createSlackLimits(now: () => number = Date.now): SlackLimits {
  const buckets = new Map<string, Bucket>();
  const limited: RateLimited[] = [];
  const unhonoured: RateLimited[] = [];
  const unwarned: RateLimited[] = [];
  return {
    limited,
    unhonoured,
    unwarned,
    check(method, channel, caller = "", arrivedAfter = Number.POSITIVE_INFINITY) {
      const perChannel = method === "chat.postMessage" && channel !== null;
      const key = perChannel ? `${method} ${channel}` : method;
      const perMinute = perChannel ? 60 : (PER_MINUTE[method] ?? DEFAULT_PER_MINUTE);
      const burst = perChannel ? POST_BURST : perMinute;
      const at = now();
      let bucket = buckets.get(key);
      if (!bucket) {
        bucket = { tokens: burst, at, retryUntil: 0, refused: new Map() };
        buckets.set(key, bucket);
      }
      const call = { method, channel: perChannel ? channel : null, at, caller };
      if (at < bucket.retryUntil) {
        const windows = (bucket.refused.get(caller) ?? []).filter(([, ends]) => at < ends);
        const arrived = Math.min(at, arrivedAfter);
        const ignored = windows.find(([answered]) => arrived - answered >= IN_FLIGHT_MS);
        const late = { ...call, retryAfterS: Math.ceil((bucket.retryUntil - at) / 1000) };
        if (ignored) {
          const refusedAt = ignored[0];
          unhonoured.push(
            arrived < at ? { ...late, arrivedAfter: arrived, refusedAt } : { ...late, refusedAt },
          );
        } else if (windows.length === 0 && !bucket.refused.has(caller)) unwarned.push(late);
      } else bucket.refused.clear();
      bucket.tokens = Math.min(burst, bucket.tokens + ((at - bucket.at) * perMinute) / 60_000);
      bucket.at = at;
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return null;
      }
      const retryAfterS = Math.ceil(((1 - bucket.tokens) * 60_000) / perMinute / 1000);
      const given = bucket.refused.get(caller) ?? [];
      given.push([at, at + retryAfterS * 1000]);
      bucket.refused.set(caller, given);
      bucket.retryUntil = Math.max(bucket.retryUntil, at + retryAfterS * 1000);
      limited.push({ ...call, retryAfterS });
      return {
        status: 429,
        headers: { "retry-after": String(retryAfterS) },
        body: { ok: false, error: "ratelimited" },
      };
    },
  };
}
