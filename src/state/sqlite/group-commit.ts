// Writes that arrive close together committed as one SQLite transaction. A daemon's digests write
// the days of each API answer as it comes in: a transaction per answer cost a cycle more than
// its rows did (each BEGIN IMMEDIATE and COMMIT takes the write lock and appends to the WAL).
// A write after a quiet spell is committed on the next turn of the event loop, so a lone write
// (a CLI command, the pre-fetcher's one request at a time) waits for nothing; writes that follow
// a commit within `gatherMs` wait up to that long for the others of their burst. A write nobody
// waits on (a daemon's digests keep the days they fetched without waiting: `withinMs`) may wait
// longer, so that a cycle's answers commit a few at a time rather than one by one, each commit
// after a wake-up of its own.

/** Commits items, many at once when they come together; each `add` settles with its own item's outcome. */
export interface GroupCommit<T> {
  /**
   * Resolves once `item` is committed; rejects with its own commit's error. `withinMs`: how long
   * it may wait for others at most, instead of the rule above; a write with a shorter wait
   * commits it sooner.
   */
  add(item: T, withinMs?: number): Promise<void>;
  /** Commits what waits now (before the database is closed). */
  flush(): void;
  /** Commits what waits now if any of it matches: a read sees the writes called before it. */
  flushIf(matches: (item: T) => boolean): void;
}

interface Waiting<T> {
  item: T;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Batches `commit` calls. A batch that fails for an error an item can cause is committed again
 * item by item, so a write fails only for an error of its own, as it did alone; any other error
 * fails the whole batch at once.
 */
export function groupCommit<T>(
  commit: (items: readonly T[]) => void,
  options: {
    gatherMs: number;
    now?: () => number;
    /**
     * Whether a failed batch's error can be one item's own (a constraint, a value that does not
     * bind), so that committing each alone is worth it. Not for a lock held elsewhere, a full
     * disk or a closed database: each retry would wait out the same busy timeout, all within
     * one synchronous flush, the event loop stalled for every one. Every error, if not given.
     */
    itemsCanCause?: (error: unknown) => boolean;
  },
): GroupCommit<T> {
  const now = options.now ?? (() => performance.now());
  let waiting: Waiting<T>[] = [];
  let timer: NodeJS.Timeout | null = null;
  /** When the timer commits, by `now`. */
  let timerAt = Number.POSITIVE_INFINITY;
  let lastCommitAt = Number.NEGATIVE_INFINITY;

  /** Commits within `ms` at the latest: a sooner commit already set stays. */
  function commitWithin(ms: number): void {
    const at = now() + ms;
    if (timer && timerAt <= at) return;
    if (timer) clearTimeout(timer);
    timerAt = at;
    timer = setTimeout(flush, ms);
  }

  function flush(): void {
    if (timer) clearTimeout(timer);
    timer = null;
    timerAt = Number.POSITIVE_INFINITY;
    const batch = waiting;
    waiting = [];
    if (batch.length === 0) return;
    lastCommitAt = now();
    try {
      commit(batch.map((w) => w.item));
      for (const w of batch) w.resolve();
    } catch (error) {
      if (batch.length === 1 || !(options.itemsCanCause?.(error) ?? true)) {
        for (const w of batch) w.reject(error);
        return;
      }
      for (const w of batch) commitAlone(w);
    }
  }

  function commitAlone(w: Waiting<T>): void {
    try {
      commit([w.item]);
      w.resolve();
    } catch (error) {
      w.reject(error);
    }
  }

  return {
    add(item, withinMs) {
      return new Promise<void>((resolve, reject) => {
        waiting.push({ item, resolve, reject });
        const busy = now() - lastCommitAt < options.gatherMs;
        commitWithin(withinMs ?? (busy ? options.gatherMs : 0));
      });
    },
    flush,
    flushIf(matches) {
      if (waiting.some((w) => matches(w.item))) flush();
    },
  };
}
