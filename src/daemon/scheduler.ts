import { LedgerLockedError } from "../errors.js";
import { createRequestCache, type RequestCache } from "../insights/collect-insights.js";
import { nextFires } from "../schedule/cron-fires.js";
import { planCatchUp } from "../schedule/plan-catch-up.js";
import { DEFAULT_RETRY_DELAYS_MS } from "../schedule/retry-delays.js";
import type { DueRetry } from "../state/ledger.js";
import type { Daemon, DaemonOptions, Timers } from "./daemon-types.js";
import { hasDueDestination, slotSendingElsewhere } from "./due-destinations.js";
import { jobId, keyForFire, metricJob, type ScheduledJob } from "./jobs.js";
import { createSlotRuns } from "./slot-runs.js";

export type * from "./daemon-types.js";

/**
 * When things run. Every tick, for each job: the planner (`schedule/plan-catch-up.ts`) names
 * the one fire due now — on time, or the latest missed one within `catch_up` — and it runs
 * unless the job is already running; then failed deliveries whose retry is due run again for
 * their slot's recorded fire. The ledger is the source of truth, so a restart picks up where
 * the last process stopped. No report logic here: `runJob` does a slot.
 */
export function createDaemon(options: DaemonOptions): Daemon {
  const { ledger, logger } = options;
  const metrics = options.metrics ?? null;
  const clock = options.now ?? (() => new Date());
  const timers = options.timers ?? realTimers;
  const tickMs = options.tickMs ?? 1_000;
  const startedAt = clock();
  // Per job, a due slot left alone because another process is sending it (see DueAt).
  const elsewhere = new Map<string, { fire: Date; key: string }>();
  const runs = createSlotRuns({
    startedAt,
    onLeftToOthers: (job, due) => elsewhere.set(job.id, due),
    ledger,
    runJob: options.runJob,
    logger,
    metrics,
    clock,
    retryDelaysMs: options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
    timers,
  });
  let jobs = [...options.jobs];
  // Per job, the `now` of its last plan: fires up to it were decided on (see planCatchUp).
  const lastChecked = new Map<string, Date>();
  const reported = new Set<string>();
  let lastTickAt: Date | null = null;
  let stopping = false;
  let timer: unknown = null;

  function tick(): void {
    if (stopping) return;
    const now = clock();
    try {
      ledger.renewLease();
    } catch (error) {
      if (!(error instanceof LedgerLockedError)) throw error;
      stopping = true;
      options.onFatal?.(error);
      return;
    }
    const cache = createRequestCache();
    for (const job of jobs) planJob(job, now, cache);
    runDueRetries(now, cache);
    lastTickAt = now;
    metrics?.ticked(now, runs.keys().length);
  }

  function planJob(job: ScheduledJob, now: Date, cache: RequestCache): void {
    // A busy job is planned once its run ends, from its last plan: no fire is lost meanwhile.
    if (runs.isRunning(job.id)) return;
    const lastCheckedAt = lastChecked.get(job.id) ?? null;
    try {
      const plan = planCatchUp({
        schedule: job.schedule,
        zone: job.zone,
        catchUpMs: job.catchUpMs,
        now,
        lastCheckedAt,
        keyForFire: (fire) => keyForFire(job, fire),
        isDelivered: (key) => ledger.isSlotDelivered(key),
      });
      lastChecked.set(job.id, now);
      for (const { fire, key, reason } of plan.skipped) {
        logger.warn(
          { job: job.id, slot: key, fireAt: fire.toISOString(), reason },
          reason === "superseded"
            ? "missed slot skipped: a later fire of the same job is delivered instead"
            : "missed slot skipped: it is older than the job's catch_up window",
        );
        metrics?.slotFinished(
          { team: job.team.name, job: metricJob(job.kind, job.name) },
          "skipped",
          now,
        );
      }
      if (lastCheckedAt === null) logNextFire(job, now);
      // A slot another process was sending is looked at again every tick until it settles.
      const due = plan.due ?? elsewhere.get(job.id) ?? null;
      elsewhere.delete(job.id);
      const at = { now, startedAt };
      if (due && hasDueDestination(ledger, due.key, at)) {
        runs.launch({ job, fire: due.fire, key: due.key, trigger: "schedule", now, cache });
      } else if (due && slotSendingElsewhere(ledger, due.key, at)) {
        elsewhere.set(job.id, due);
      }
    } catch (error) {
      reportOnce(job.id, error, "could not plan the job; it does not run until this is fixed");
    }
  }

  function runDueRetries(now: Date, cache: RequestCache): void {
    const bySlot = new Map<string, DueRetry[]>();
    for (const retry of ledger.dueRetries(now)) {
      bySlot.set(retry.slot.key, [...(bySlot.get(retry.slot.key) ?? []), retry]);
    }
    for (const [key, retries] of bySlot) {
      const { slot } = retries[0] as DueRetry;
      const job = jobs.find((j) => j.id === jobId(slot.team, slot.kind, slot.job));
      if (!job) {
        giveUp(retries, "its job is no longer in the config");
      } else if (keyForFire(job, slot.fireAt) !== key) {
        giveUp(retries, "its job now covers another period (the config changed)");
      } else if (!runs.isRunning(job.id)) {
        runs.launch({ job, fire: slot.fireAt, key, trigger: "retry", now, cache });
      }
    }
  }

  function giveUp(retries: DueRetry[], reason: string): void {
    for (const { slot, destination, attempts, lastError } of retries) {
      ledger.markFailed(
        slot.key,
        destination,
        `${lastError ?? "failed"} (given up: ${reason})`,
        null,
      );
      logger.error({ slot: slot.key, destination, attempts }, `delivery given up: ${reason}`);
      metrics?.delivery(
        { team: slot.team, job: metricJob(slot.kind, slot.job) },
        destination,
        "gave_up",
      );
    }
  }

  function logNextFire(job: ScheduledJob, now: Date): void {
    const next = nextFires(job.schedule, job.zone, now, 1)[0];
    logger.info(
      {
        job: job.id,
        schedule: job.schedule,
        zone: job.zone,
        nextFire: next?.toISOString() ?? null,
      },
      "scheduled",
    );
  }

  function reportOnce(id: string, error: unknown, message: string): void {
    const err = error instanceof Error ? error.message : String(error);
    if (reported.has(`${id} ${err}`)) return;
    reported.add(`${id} ${err}`);
    logger.error({ job: id, err }, message);
  }

  function loop(): void {
    try {
      tick();
    } catch (error) {
      reportOnce(
        "scheduler",
        error,
        "the scheduler tick failed (is the ledger writable?); trying again every tick",
      );
    }
    if (!stopping) timer = timers.setTimeout(loop, tickMs);
  }

  return {
    start: loop,
    tick,
    idle: runs.idle,
    async stop(graceMs) {
      stopping = true;
      if (timer !== null) timers.clearTimeout(timer);
      if (runs.keys().length === 0) return [];
      logger.info({ running: runs.keys(), graceMs }, "stopping: waiting for slots in flight");
      return (await runs.settleWithin(graceMs)) ? [] : runs.keys();
    },
    replaceJobs(next) {
      jobs = [...next];
      const ids = new Set(jobs.map((j) => j.id));
      for (const id of lastChecked.keys()) if (!ids.has(id)) lastChecked.delete(id);
      for (const id of elsewhere.keys()) if (!ids.has(id)) elsewhere.delete(id);
    },
    status: () => ({ lastTickAt, running: runs.keys(), stopping }),
  };
}

const realTimers: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};
