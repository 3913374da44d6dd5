import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { createPlainApiClient } from "../create-read-clients.js";
import { LookbackError, UsageError } from "../errors.js";
import { apiEarliestDate } from "../insights/api-lookback.js";
import { withDayStore } from "../insights/stored-insights-api.js";
import type { InsightsApi, ProjectSelection } from "../insights/types.js";
import { createLogger } from "../logger.js";
import { addDays, datesIn, isIsoDate, localDateOf } from "../periods/calendar-date.js";
import { plural } from "../render/format.js";
import { fitLine } from "../render/terminal/terminal-style.js";
import { type DaySeries, type DayStore, dayFilterKey } from "../state/day-store.js";
import { openDayStore } from "../state/open/open-day-store.js";
import { findTeam, loadCommandConfig } from "./command-context.js";
import { terminalWidth } from "./terminal-width.js";

// `backfill`: fills the day store with every day the API still serves. It asks in chunks of a
// month, each written to the store in one statement when it arrives, and skips the days the
// store holds final: killed, it loses only the chunks in flight, and run again it asks for
// exactly those. A second run, or two at once, stores each day once; and two at once ask for
// each chunk once: a chunk is claimed in the store before it is asked for, and a backfill that
// finds it claimed waits, then skips it (the other fetched it) or, if the claim expired (its
// holder died), fetches it itself.

export interface BackfillOptions {
  team?: string;
  from?: string;
  config?: string;
}

const CHUNK_DAYS = 31;
/**
 * A chunk's claim is renewed while it is fetched; one not renewed for this long belonged to a
 * backfill that died, and a backfill run again after a kill waits no longer than this for it.
 */
const CLAIM_EXPIRY_MS = 10_000;
const CLAIM_RENEW_MS = 3_000;
/** How often a backfill waiting on another's chunk looks again. */
const CLAIM_POLL_MS = 250;
const DEFAULT_SETTLE_AFTER_MS = 48 * 3_600_000;

interface Series {
  project: ProjectSelection;
  timezone: string;
}

/** Exit 0 when every series is filled, 1 when some project could not be fetched. */
export async function backfillCommand(
  opts: BackfillOptions,
  out: (line: string) => void,
  now: () => Date = () => new Date(),
  progress: NodeJS.WriteStream = process.stderr,
): Promise<number> {
  if (opts.from !== undefined && !isIsoDate(opts.from)) {
    throw new UsageError(`--from "${opts.from}" is not a date — use YYYY-MM-DD, e.g. 2026-09-01`);
  }
  const config = loadCommandConfig(opts, { requireCredentials: false });
  const teams = opts.team ? [findTeam(config, opts.team)] : config.teams;
  const series = uniqueSeries(
    teams.flatMap((team) => team.projects.map((project) => ({ project, timezone: team.timezone }))),
  );
  const logger = createLogger({ level: "silent" });
  const store = await openDayStore(config.state, logger);
  let requests = 0;
  const client = createPlainApiClient(config, (info) => {
    if (info.path.endsWith("/insights")) requests += 1;
  });
  const api = withDayStore(client, {
    days: async () => store,
    now: () => now().getTime(),
    settleAfterMs: config.history?.settleAfterMs ?? DEFAULT_SETTLE_AFTER_MS,
    ...(config.history ? { keep: config.history.keep } : {}),
  });
  const claims = chunkClaims(store, `backfill pid ${process.pid} ${randomUUID()}`);
  const width = terminalWidth();
  const say = (line: string) => {
    for (const fitted of fitLine(line, width)) out(fitted);
  };
  const bar = progressBar(progress, say, series.length);
  let failed = 0;
  const beyond: string[] = [];
  try {
    await Promise.all(
      series.map(async (one) => {
        try {
          const unserved = await fillSeries(api, claims, one, opts.from, now());
          bar.done(`${one.project.id} (${one.timezone}) filled`);
          if (unserved) beyond.push(await describeUnserved(store, one, unserved));
        } catch (error) {
          if (error instanceof LookbackError || !(error instanceof Error)) throw error;
          failed += 1;
          bar.done(`${one.project.id} (${one.timezone}) not filled: ${error.message}`);
        }
      }),
    );
    bar.end();
    say(
      `backfilled ${series.length - failed} of ${series.length} series with ${requests} requests`,
    );
    for (const line of beyond.sort()) say(line);
    return failed > 0 ? 1 : 0;
  } finally {
    await client.close();
    await store.close();
  }
}

/**
 * One series from its first served day to today, a chunk at a time, oldest first. Returns the
 * asked days the API no longer serves (--from before its reach), or null.
 */
async function fillSeries(
  api: InsightsApi,
  claims: ChunkClaims,
  { project, timezone }: Series,
  from: string | undefined,
  now: Date,
): Promise<{ start: string; end: string; servedFrom: string } | null> {
  let unserved: { start: string; end: string; servedFrom: string } | null = null;
  const today = localDateOf(now, timezone);
  // Three calendar months back: the first day the API serves, which a digest's chart or a
  // prior period reaching past the lookback asks for (a clock a little off from the API's is
  // answered by the store, which asks again from the day the API names).
  let start = from ?? apiEarliestDate(today);
  const query = { timezone, branch: project.branch, author: project.author, tags: project.tags };
  const days: DaySeries = { projectId: project.id, filters: dayFilterKey(project), timezone };
  while (start <= today) {
    const end = addDays(start, CHUNK_DAYS - 1) < today ? addDays(start, CHUNK_DAYS - 1) : today;
    try {
      await claims.fetching(days, start, () =>
        api.getInsights(project.id, { ...query, startDate: start, endDate: end }),
      );
    } catch (error) {
      // --from older than the API serves: start at the day it names instead.
      if (error instanceof LookbackError && error.earliestDate > start) {
        unserved = { start, end: addDays(error.earliestDate, -1), servedFrom: error.earliestDate };
        start = error.earliestDate;
        continue;
      }
      throw error;
    }
    start = addDays(end, 1);
  }
  return unserved;
}

/**
 * What --from asked for and could not have: the days before the API's reach, and how many of
 * them the store does not hold either (a report of them will lack those).
 */
async function describeUnserved(
  store: DayStore,
  { project, timezone }: Series,
  unserved: { start: string; end: string; servedFrom: string },
): Promise<string> {
  const series = { projectId: project.id, filters: dayFilterKey(project), timezone };
  const held = (await store.readDays(series, unserved.start, unserved.end)).length;
  const asked = datesIn({ start: unserved.start, end: unserved.end }).length;
  const missing = asked - held;
  const inStore =
    missing === 0
      ? "the store holds every one of them"
      : `${missing === asked ? "all" : missing} of them ${missing === 1 ? "is" : "are"} not in the store either`;
  return `${project.id} (${timezone}): ${unserved.start}..${unserved.end} (${plural(asked, "day")}) is beyond the API's reach (it serves from ${unserved.servedFrom}); ${inStore}`;
}

interface ChunkClaims {
  /** Runs `fetch` under the chunk's claim; skips it once another backfill has fetched it. */
  fetching(series: DaySeries, start: string, fetch: () => Promise<unknown>): Promise<void>;
}

/** Claims of chunks in the store, for `owner` (one backfill run). */
function chunkClaims(store: DayStore, owner: string): ChunkClaims {
  return {
    async fetching(series, start, fetch) {
      let waited = false;
      for (;;) {
        const claim = await store.claimFetch(series, start, owner, CLAIM_EXPIRY_MS);
        if (claim === "held") {
          waited = true;
          await sleep(CLAIM_POLL_MS);
          continue;
        }
        try {
          // Released by its holder while this one waited: the chunk is stored.
          if (claim === "won" && waited) return;
          const renew = setInterval(() => {
            store.claimFetch(series, start, owner, CLAIM_EXPIRY_MS).catch(() => {});
          }, CLAIM_RENEW_MS);
          try {
            await fetch();
          } finally {
            clearInterval(renew);
          }
          return;
        } finally {
          await store.releaseFetch(series, start, owner);
        }
      }
    },
  };
}

/** Teams sharing a project, its filters and zone fill it once. */
function uniqueSeries(all: readonly Series[]): Series[] {
  const byKey = new Map<string, Series>();
  for (const one of all) {
    byKey.set(JSON.stringify([one.project.id, dayFilterKey(one.project), one.timezone]), one);
  }
  return [...byKey.values()];
}

/** A bar redrawn in place on a terminal; elsewhere, a line per series done. */
function progressBar(stream: NodeJS.WriteStream, out: (line: string) => void, total: number) {
  let count = 0;
  const tty = stream.isTTY === true;
  return {
    done(line: string) {
      count += 1;
      if (!tty) {
        out(`[${count}/${total}] ${line}`);
        return;
      }
      const width = 30;
      const filled = total === 0 ? width : Math.round((count / total) * width);
      stream.write(`\r[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${count}/${total}`);
    },
    end() {
      if (tty && total > 0) stream.write("\n");
    },
  };
}
