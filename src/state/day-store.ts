// The day store: each project day fetched from the insights API, as counts (never percentages)
// with the time it was fetched, so that a settled day is asked once and a range older than the
// API's lookback can still be reported. A day is one project, one set of filters and one zone:
// the API buckets days by the requested zone, so a day in Berlin is not a day in Auckland.

/** Which series a day belongs to. `filters` is the canonical text of `dayFilterKey`. */
export interface DaySeries {
  projectId: string;
  filters: string;
  timezone: string;
}

/** One stored day. `runs`/`tests` are null on a day the API sent with only its date. */
export interface StoredDay {
  /** ISO date in the series' zone. */
  date: string;
  runs: { passed: number; failed: number; meanDurationMs: number | null } | null;
  tests: {
    passed: number;
    failed: number;
    skipped: number;
    flaky: number;
    timedOut: number;
  } | null;
  fetchedAt: Date;
}

/** What the store holds of one series: its first and last day and how many days. */
export interface SeriesCoverage extends DaySeries {
  first: string;
  last: string;
  days: number;
}

/** How a fetch claim went: won (nobody held it), taken over (its holder's claim expired), or held by another. */
export type FetchClaim = "won" | "taken_over" | "held";

export interface DayStore {
  /** The held days of a series between two ISO dates (inclusive), oldest first. */
  readDays(series: DaySeries, start: string, end: string): Promise<StoredDay[]>;
  /**
   * Writes days, replacing any held copy of the same day with a later-fetched one; settles once
   * they are committed. `commitWithinMs`: how long the write may wait to be committed with
   * others, for a caller that does not wait on it (SQLite gathers writes; PostgreSQL writes each
   * at once). A read of the same series commits it first, and so does `close`.
   */
  writeDays(
    series: DaySeries,
    days: readonly StoredDay[],
    options?: { commitWithinMs?: number },
  ): Promise<void>;
  /** Every series held, with its extent. */
  coverage(): Promise<SeriesCoverage[]>;
  /**
   * Claims the fetch of a series' days from `start` for `owner`, in one conditional write, as
   * the ledger's other claims: two backfills at once thus ask the API for each chunk once. A
   * claim older than `expiryMs` is taken over: its holder died or stalled. Its owner claiming
   * again renews it (a long fetch keeps its claim so).
   */
  claimFetch(
    series: DaySeries,
    start: string,
    owner: string,
    expiryMs: number,
  ): Promise<FetchClaim>;
  /**
   * Lets `owner`'s claim of the fetch from `start` go (a claim taken over since is left alone),
   * once the series' writes called before it are committed: whoever waited on the claim finds
   * the days fetched under it.
   */
  releaseFetch(series: DaySeries, start: string, owner: string): Promise<void>;
  /** Deletes every series' days dated before `date` (`history.keep`); how many were deleted. */
  forgetBefore(date: string): Promise<number>;
  /** Commits the writes called before it, then closes. */
  close(): Promise<void>;
}

/** Whether two series are one: the same project, filter set and zone. */
export function sameSeries(a: DaySeries, b: DaySeries): boolean {
  return a.projectId === b.projectId && a.filters === b.filters && a.timezone === b.timezone;
}

/** The canonical text of a filter set: tags sorted, since they all have to match. */
export function dayFilterKey(filters: {
  branch: string | null;
  author: string | null;
  tags: readonly string[];
}): string {
  return JSON.stringify({
    branch: filters.branch,
    author: filters.author,
    tags: [...filters.tags].sort(),
  });
}
