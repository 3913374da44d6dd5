import type { ResolvedConfig } from "../config/types.js";
import type { Clients } from "../create-deps.js";
import type { Logger } from "../logger.js";
import { createDayPrefetcher, type DayPrefetcher } from "../scheduler/day-prefetcher.js";
import { listJobs } from "../scheduler/jobs.js";
import type { Daemon } from "../scheduler/scheduler.js";

// The daemon's prefetch of settled days (`history.prefetch`), started beside its scheduler:
// it follows the jobs of the config in force after a reload, and stands aside while a slot runs.

/** The prefetch's pace unless set: a quarter of the API budget, so a slot that starts mid-pass still finds three quarters of the minute free. */
export function prefetchPerMinute(config: Pick<ResolvedConfig, "api" | "history">): number {
  const set = config.history?.prefetch?.maxRequestsPerMinute ?? null;
  if (set !== null) return set;
  const budget = config.api.maxRequestsPerMinute;
  return budget === null ? 60 : Math.max(1, Math.floor(budget / 4));
}

/** Starts the prefetch when the config has it and there is a day store; null otherwise. */
export function startPrefetch(
  config: ResolvedConfig,
  deps: {
    clients: Pick<Clients, "api" | "dayStore">;
    daemon: Pick<Daemon, "status">;
    teams: () => ResolvedConfig["teams"];
    owner: string;
    logger: Logger;
    now: () => Date;
  },
): DayPrefetcher | null {
  const prefetch = config.history?.prefetch ?? null;
  const dayStore = deps.clients.dayStore;
  if (!prefetch || !dayStore || !config.history) return null;
  const prefetcher = createDayPrefetcher({
    jobs: () => listJobs(deps.teams()),
    api: deps.clients.api,
    days: dayStore,
    now: deps.now,
    settleAfterMs: config.history.settleAfterMs,
    aheadMs: prefetch.aheadMs,
    maxRequestsPerMinute: prefetchPerMinute(config),
    busy: () => deps.daemon.status().running.length > 0,
    owner: `prefetch, ${deps.owner}`,
    logger: deps.logger,
  });
  prefetcher.start();
  return prefetcher;
}
