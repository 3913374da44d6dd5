import { InvalidRangeError, LookbackError } from "../errors.js";
import { datesIn, localDateOf } from "../periods/calendar-date.js";
import { type DateRange, planDayFetches } from "../periods/plan-day-fetches.js";
import { firstKeptDate, type Retention } from "../periods/retention.js";
import { type DaySeries, type DayStore, dayFilterKey, type StoredDay } from "../state/day-store.js";
import { apiEarliestDate } from "./api-lookback.js";
import { totalsOfDays } from "./insights-within.js";
import type { InsightsApi, InsightsDay, InsightsQuery, ProjectInsights } from "./types.js";

// The insights API behind the day store: a request is answered from the days the store holds
// and asks the API only for days it lacks or that are not final (`planDayFetches`); every day
// fetched is written to the store. Fetches of the same days at once share one request, so the
// digests and alerts of a run that all need the recent days ask for them once.

export interface DayStoreOptions {
  /** The store, opened on first use; null: no store (the API alone answers). */
  days: () => Promise<DayStore | null>;
  /** Epoch milliseconds. */
  now: () => number;
  /** `history.settle_after`. */
  settleAfterMs: number;
  /** `history.keep`: older days are deleted from the store once a day; absent: kept for ever. */
  keep?: Retention;
  /** A day not final is asked again only once it was fetched this long ago (default 5 min). */
  freshForMs?: number;
  /**
   * Answers without waiting for their days to be committed: they are committed within
   * `commitWithinMs`, a few answers at a time (a read of the series, or closing the store,
   * commits them first), and a write that fails is passed to `onError`, its days asked again
   * next time. Absent: each answer waits for its days' commit, and a failed write fails it.
   */
  writeBehind?: {
    commitWithinMs: number;
    onError: (error: unknown, series: DaySeries) => void;
  };
}

/**
 * Long enough for one daemon tick's digests and alerts, run one after another, to share the
 * recent days the first of them asked; short enough that the next tick sees late uploads.
 */
const FRESH_FOR_MS = 5 * 60_000;

/** `api` with the day store in front of its insights; the project list is the API's. */
export function withDayStore(api: InsightsApi, options: DayStoreOptions): InsightsApi {
  const inFlight = new Map<string, Promise<FetchedRange>>();
  let forgottenOn: string | null = null;
  /**
   * The API's today, by zone, where it was found behind ours (its clock, or a test emulator's),
   * with our today when it was found: later requests of that day end at the API's today, so
   * they are not refused and asked again (two requests) but asked once.
   */
  const apiTodays = new Map<string, { ours: string; api: string }>();

  /** Deletes the days `history.keep` no longer keeps, on the first request of each UTC day. */
  async function forgetOldDays(store: DayStore, nowMs: number): Promise<void> {
    if (!options.keep) return;
    // The UTC date from the ISO text: no zone to look up, on every request.
    const today = new Date(nowMs).toISOString().slice(0, 10);
    if (forgottenOn === today) return;
    forgottenOn = today;
    try {
      await store.forgetBefore(firstKeptDate(today, options.keep));
    } catch (error) {
      forgottenOn = null; // tried again on the next request
      throw error;
    }
  }

  /**
   * One range of a series from the API, written to the store; shared while in flight, and
   * behind, until its days are committed (a read of them meanwhile would ask again).
   */
  function fetchRange(
    store: DayStore,
    series: DaySeries,
    query: InsightsQuery,
    range: DateRange,
  ): Promise<FetchedRange> {
    const key = JSON.stringify([series, range]);
    const shared = inFlight.get(key);
    if (shared) return shared;
    const forget = () => {
      if (inFlight.get(key) === request) inFlight.delete(key);
    };
    const request = (async () => {
      const insights = await api.getInsights(series.projectId, {
        ...query,
        startDate: range.start,
        endDate: range.end,
      });
      const fetchedAt = new Date(options.now());
      // The API cut the range short at its today, behind ours: remembered for our day.
      if (insights.endDate < range.end) {
        const ours = localDateOf(fetchedAt, query.timezone);
        if (insights.endDate < ours) apiTodays.set(query.timezone, { ours, api: insights.endDate });
      }
      const days = insights.days.map((day) => ({ ...storedDay(day), fetchedAt }));
      const behind = options.writeBehind;
      if (!behind) {
        await store.writeDays(series, days);
        return { days, endDate: insights.endDate };
      }
      store
        .writeDays(series, days, { commitWithinMs: behind.commitWithinMs })
        .catch((error: unknown) => behind.onError(error, series))
        .finally(forget);
      return { days, endDate: insights.endDate };
    })();
    inFlight.set(key, request);
    // Done when it failed, or with its answer when its days were committed before it (behind,
    // once they are: above).
    request.then(options.writeBehind ? undefined : forget, forget);
    return request;
  }

  /**
   * A range from the API; the part of it before the API's lookback is left to the store. The
   * refusal is kept (`refused`), so that days neither held nor served can be named as missing.
   */
  async function fetchServed(
    store: DayStore,
    series: DaySeries,
    query: InsightsQuery,
    range: DateRange,
    refused: LookbackError[],
  ): Promise<StoredDay[]> {
    try {
      return (await fetchRange(store, series, query, range)).days;
    } catch (error) {
      if (!(error instanceof LookbackError) || error.earliestDate <= range.start) throw error;
      refused.push(error);
      if (error.earliestDate > range.end) return [];
      return (await fetchRange(store, series, query, { start: error.earliestDate, end: range.end }))
        .days;
    }
  }

  return {
    listProjects: () => api.listProjects(),

    async getInsights(projectId, query): Promise<ProjectInsights> {
      const store = await options.days();
      const nowMs = options.now();
      const ourToday = localDateOf(new Date(nowMs), query.timezone);
      const apiToday = () => {
        const behind = apiTodays.get(query.timezone);
        return behind?.ours === ourToday ? behind.api : ourToday;
      };
      let end = query.endDate < apiToday() ? query.endDate : apiToday();
      // A range the API refuses as such (reversed) gets the API's own answer.
      if (!store || query.startDate > end) return api.getInsights(projectId, query);
      await forgetOldDays(store, nowMs);
      const series: DaySeries = {
        projectId,
        filters: dayFilterKey(query),
        timezone: query.timezone,
      };
      const held = await store.readDays(series, query.startDate, end);
      // Days before the API's lookback are not asked: it refuses them (400), and would on every
      // run, since the store can never get them. They are named as missing like a refusal's.
      const served = apiEarliestDate(apiToday());
      const refused: LookbackError[] =
        query.startDate < served ? [new LookbackError(served, { projectId })] : [];
      const ranges = planDayFetches({
        start: query.startDate < served ? served : query.startDate,
        end,
        timezone: query.timezone,
        held: new Map(held.map((day) => [day.date, day.fetchedAt.getTime()])),
        nowMs,
        today: ourToday,
        settleAfterMs: options.settleAfterMs,
        freshForMs: options.freshForMs ?? FRESH_FOR_MS,
      });
      const byDate = new Map(held.map((day) => [day.date, day]));
      let fetched: StoredDay[][];
      try {
        fetched = await Promise.all(
          ranges.map((range) => fetchServed(store, series, query, range, refused)),
        );
      } catch (error) {
        // The API's today is behind ours (its clock, or a test's emulator): the recent window
        // starts after it. The range as asked gets the API's own answer, and is stored.
        if (!(error instanceof InvalidRangeError)) throw error;
        const range = { start: query.startDate, end: query.endDate };
        fetched = [(await fetchRange(store, series, query, range)).days];
      }
      // Learnt from this answer: the days after the API's today are not missing, only not yet.
      if (apiToday() < end) end = apiToday();
      for (const day of fetched.flat()) byDate.set(day.date, day);
      const dates = datesIn({ start: query.startDate, end });
      const days = dates.flatMap((date) => byDate.get(date) ?? []);
      const missing = dates.filter((date) => !byDate.has(date));
      if (missing.length === 0) return assemble(projectId, query, end, days);
      // Days before the API's lookback that the store never held are named, not shown as zeros;
      // a range with none of its days anywhere stays the API's refusal.
      const earliest = refused.map((error) => error.earliestDate).sort()[0];
      const beyondLookback = earliest !== undefined && missing.every((date) => date < earliest);
      if (beyondLookback && missing.length < dates.length) {
        return { ...assemble(projectId, query, end, days), missingDays: missing };
      }
      if (beyondLookback) throw refused[0];
      // A day neither held nor sent (the API cut the range short): the API's answer, not zeros.
      return api.getInsights(projectId, query);
    },
  };
}

/** The days of one request, and the last date the API served (its today when it clamped). */
interface FetchedRange {
  days: StoredDay[];
  endDate: string;
}

function storedDay(day: InsightsDay): Omit<StoredDay, "fetchedAt"> {
  return { date: day.date, runs: day.runs, tests: day.tests };
}

/** The insights of a range from its days: the totals are the days' sums. */
function assemble(
  projectId: string,
  query: InsightsQuery,
  end: string,
  days: readonly StoredDay[],
): ProjectInsights {
  const bare = days.map((day) => ({ date: day.date, runs: day.runs, tests: day.tests }));
  return {
    projectId,
    startDate: query.startDate,
    endDate: end,
    timezone: query.timezone,
    days: bare,
    overall: totalsOfDays(bare),
  };
}

/** Opens the store once, on first use; a store that will not open leaves the API alone to answer. */
export function openOnce(
  open: () => Promise<DayStore | null>,
  onError: (error: unknown) => void,
): { days: () => Promise<DayStore | null>; close: () => Promise<void> } {
  let opened: Promise<DayStore | null> | null = null;
  return {
    days: () => {
      opened ??= open().catch((error: unknown) => {
        onError(error);
        return null;
      });
      return opened;
    },
    close: async () => {
      await (await opened)?.close();
    },
  };
}
