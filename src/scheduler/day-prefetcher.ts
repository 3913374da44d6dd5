import { setTimeout as delay, setImmediate as yieldToLoop } from "node:timers/promises";
import { AuthError } from "../errors.js";
import type { InsightsApi } from "../insights/types.js";
import type { Logger } from "../logger.js";
import { isFinalDay } from "../periods/plan-day-fetches.js";
import type { DayStore } from "../state/day-store.js";
import { nextFires } from "../timetable/cron-fires.js";
import type { ScheduledJob } from "./jobs.js";
import {
  type PrefetchSeries,
  rangesOf,
  seriesOfJob,
  settledDaysAhead,
  spansOfFire,
} from "./prefetch-plan.js";

// The settled days of the next fires, fetched into the day store while the daemon is idle, so
// that a burst of digests at 09:00 asks the API only for each series' recent days. It asks
// through the day store's own front (`withDayStore`), one range at a time, at its own pace
// within the process's request budget, and only while no slot runs and no fire is near: a due
// slot's requests never queue behind it. Replicas claim each range in the store first (as two
// backfills do), so they fetch it once between them.

export interface DayPrefetcherOptions {
  /** The jobs scheduled now (the daemon's, after any reload). */
  jobs: () => readonly ScheduledJob[];
  /** The insights API behind the day store: what it fetches, it writes to the store. */
  api: InsightsApi;
  /** The day store, for what it holds and its claims; null: nothing is prefetched. */
  days: () => Promise<DayStore | null>;
  now: () => Date;
  settleAfterMs: number;
  /** How far ahead of a fire its days are fetched (`history.prefetch.ahead`). */
  aheadMs: number;
  /** Requests a minute at most (`history.prefetch.max_requests_per_minute`). */
  maxRequestsPerMinute: number;
  /** Whether a slot runs now: the prefetch stops until none does. */
  busy: () => boolean;
  /** Who claims its ranges in the store (the daemon's owner). */
  owner: string;
  logger: Logger;
  /** Waits between two requests, and between passes (tests pass a clock of their own). */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** No request goes out this close to any fire (default 2 min: past the budget's minute). */
  guardMs?: number;
  /** Planning hands the event loop back after this much work (default 20 ms; tests pass 0). */
  yieldEveryMs?: number;
}

/** How a pass ended: every range asked, or stopped early (busy, a fire near, stopping). */
export interface PassResult {
  requests: number;
  /** The ranges another replica held the claim of, left to it. */
  leftToOthers: number;
  finished: boolean;
}

export interface DayPrefetcher {
  /** One pass over the next fires' settled days; what a test drives. */
  pass(): Promise<PassResult>;
  /** Passes in the background: every `PASS_EVERY_MS`, sooner after one cut short. */
  start(): void;
  /** No more requests; resolves once the one in flight (if any) is done. */
  stop(): Promise<void>;
}

/** Fires looked at per job: a job firing every minute still has its days named by a few. */
const FIRES_PER_JOB = 8;
/** Days in one request at most, as the backfill's chunks. */
const RANGE_DAYS = 31;
const DEFAULT_GUARD_MS = 2 * 60_000;
/** A claim its holder did not release within this long is taken over (its holder died). */
const CLAIM_EXPIRY_MS = 10 * 60_000;
const PASS_EVERY_MS = 15 * 60_000;
const RETRY_PASS_MS = 60_000;
const YIELD_EVERY_MS = 20;

export function createDayPrefetcher(options: DayPrefetcherOptions): DayPrefetcher {
  const sleep = options.sleep ?? ((ms, signal) => delay(ms, undefined, { signal }));
  const guardMs = options.guardMs ?? DEFAULT_GUARD_MS;
  const yieldEveryMs = options.yieldEveryMs ?? YIELD_EVERY_MS;
  const gapMs = Math.ceil(60_000 / Math.max(1, options.maxRequestsPerMinute));
  const stopping = new AbortController();
  let running: Promise<void> | null = null;
  let since = performance.now();

  /**
   * Hands the event loop back every `yieldEveryMs` of planning: the fires and days of a
   * thousand teams take a while, and /healthz and the scheduler's timers must not wait on them.
   */
  async function handBack(): Promise<void> {
    if (performance.now() - since < yieldEveryMs) return;
    await yieldToLoop();
    since = performance.now();
  }

  /** The ranges to fetch now, by series, the next fire's first. */
  async function plan(store: DayStore, nowMs: number) {
    const wanted = new Map<string, { one: PrefetchSeries; days: Set<string> }>();
    const upcoming: { job: ScheduledJob; fire: Date }[] = [];
    for (const job of options.jobs()) {
      // One fire at a time, up to the horizon: a weekly job's next 8 fires cost 8 weeks of cron.
      let after = new Date(nowMs);
      for (let i = 0; i < FIRES_PER_JOB; i++) {
        const fire = nextFires(job.schedule, job.zone, after, 1)[0];
        if (!fire || fire.getTime() > nowMs + options.aheadMs) break;
        upcoming.push({ job, fire });
        after = fire;
      }
      await handBack();
    }
    upcoming.sort((a, b) => a.fire.getTime() - b.fire.getTime());
    for (const { job, fire } of upcoming) {
      await handBack();
      const days = settledDaysAhead({
        spans: spansOfFire(job, fire),
        timezone: job.zone,
        nowMs,
        settleAfterMs: options.settleAfterMs,
      });
      if (days.length === 0) continue;
      for (const one of seriesOfJob(job)) {
        const key = JSON.stringify(one.series);
        const entry = wanted.get(key) ?? { one, days: new Set<string>() };
        for (const day of days) entry.days.add(day);
        wanted.set(key, entry);
      }
    }
    const work: { one: PrefetchSeries; start: string; end: string }[] = [];
    for (const { one, days } of wanted.values()) {
      await handBack();
      const sorted = [...days].sort();
      const first = sorted[0];
      const last = sorted.at(-1);
      if (first === undefined || last === undefined) continue;
      const final = new Set(
        (await store.readDays(one.series, first, last))
          .filter((day) =>
            isFinalDay(
              day.date,
              one.series.timezone,
              day.fetchedAt.getTime(),
              options.settleAfterMs,
            ),
          )
          .map((day) => day.date),
      );
      const missing = sorted.filter((date) => !final.has(date));
      for (const range of rangesOf(missing, RANGE_DAYS)) work.push({ one, ...range });
    }
    return work;
  }

  /** The first instant of any job's next fire, less the guard: the prefetch stops by then. */
  async function quietUntil(nowMs: number): Promise<number> {
    let next = Number.POSITIVE_INFINITY;
    for (const job of options.jobs()) {
      const fire = nextFires(job.schedule, job.zone, new Date(nowMs), 1)[0]?.getTime();
      if (fire !== undefined && fire < next) next = fire;
      await handBack();
    }
    return next - guardMs;
  }

  async function pass(): Promise<PassResult> {
    const result: PassResult = { requests: 0, leftToOthers: 0, finished: false };
    const store = await options.days();
    if (!store) return { ...result, finished: true };
    // While a slot runs nothing is asked: the next fires of every job need not be worked out.
    if (stopping.signal.aborted || options.busy()) return result;
    const startMs = options.now().getTime();
    const until = await quietUntil(startMs);
    const quiet = () =>
      !stopping.signal.aborted && !options.busy() && options.now().getTime() < until;
    if (!quiet()) return result;
    const work = await plan(store, startMs);
    for (const [index, { one, start, end }] of work.entries()) {
      if (index > 0 && result.requests > 0) {
        try {
          await sleep(gapMs, stopping.signal);
        } catch {
          return result; // stopping
        }
      }
      if (!quiet()) return result;
      const claim = await store.claimFetch(one.series, start, options.owner, CLAIM_EXPIRY_MS);
      if (claim === "held") {
        result.leftToOthers += 1;
        continue;
      }
      try {
        result.requests += 1;
        await options.api.getInsights(one.series.projectId, {
          ...one.query,
          startDate: start,
          endDate: end,
        });
      } catch (error) {
        if (error instanceof AuthError) throw error;
        // The fire asks again for what failed here: a prefetch is only ever a head start.
        options.logger.debug(
          { project: one.series.projectId, start, end, err: String(error) },
          "could not prefetch days; the fire will ask for them",
        );
      } finally {
        await store.releaseFetch(one.series, start, options.owner);
      }
    }
    return { ...result, finished: true };
  }

  async function loop(): Promise<void> {
    while (!stopping.signal.aborted) {
      let finished = false;
      try {
        const result = await pass();
        finished = result.finished;
        if (result.requests > 0) {
          options.logger.info(
            { requests: result.requests, leftToOthers: result.leftToOthers, finished },
            "prefetched settled days of the next fires into the day store",
          );
        }
      } catch (error) {
        finished = true; // tried again at the next pass, not every minute
        options.logger.warn(
          { err: error instanceof Error ? error.message : String(error) },
          "the prefetch of settled days failed; trying again later",
        );
      }
      try {
        await sleep(finished ? PASS_EVERY_MS : RETRY_PASS_MS, stopping.signal);
      } catch {
        return;
      }
    }
  }

  return {
    pass,
    start() {
      running ??= loop();
    },
    async stop() {
      stopping.abort();
      await running;
    },
  };
}
