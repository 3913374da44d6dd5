import { setImmediate as yieldToLoop } from "node:timers/promises";
import { LedgerLockedError } from "../errors.js";
import { createRequestCache, type RequestCache } from "../insights/collect-insights.js";
import { nextFires } from "../schedule/cron-fires.js";
import { planCatchUp } from "../schedule/plan-catch-up.js";
import { DEFAULT_RETRY_DELAYS_MS } from "../schedule/retry-delays.js";
import { SEND_TIMEOUT_MS } from "../state/delivery-due.js";
import type { DueRetry } from "../state/ledger.js";
import type { Daemon, DaemonOptions, Timers } from "./daemon-types.js";
import { hasDueDestination, slotSendingElsewhere } from "./due-destinations.js";
import { jobId, keyForFire, metricLabels, type ScheduledJob } from "./jobs.js";
import { createSlotRuns, type SlotLaunch } from "./slot-runs.js";
import { createUnrecordedRetries } from "./unrecorded-retries.js";

export type * from "./daemon-types.js";

// Planning one job with hours of catch-up takes tens of milliseconds, and a config may have
// hundreds: a tick hands the event loop back at least this often, so /healthz, timers and the
// deliveries in flight are never held up for the whole first tick.
const YIELD_EVERY_MS = 20;
// While a due slot is left to another process's send in flight, it is looked at this often.
const ELSEWHERE_POLL_MS = 1_000;

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
  const maxSleepMs = options.tickMs ?? 5_000;
  const sendTimeoutMs = options.sendTimeoutMs ?? SEND_TIMEOUT_MS;
  // Per job, a due slot left alone because a send of it is in flight (see DueAt).
  const elsewhere = new Map<string, { fire: Date; key: string }>();
  const unrecorded = createUnrecordedRetries(
    logger,
    async (key) => (await ledger.getSlot(key)) !== null,
  );
  const runs = createSlotRuns({
    claim: { owner: options.owner ?? `daemon pid ${process.pid}`, sendTimeoutMs },
    onLeftToOthers: (job, due) => {
      elsewhere.set(job.id, due);
      wakeWithin(ELSEWHERE_POLL_MS);
    },
    ledger,
    runJob: options.runJob,
    ...(options.maxRunsInFlight ? { maxInFlight: options.maxRunsInFlight } : {}),
    logger,
    metrics,
    clock,
    retryDelaysMs: options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
    timers,
    onUnrecordedFailure: (job, due, retryAt) => unrecorded.failed({ job, ...due }, retryAt),
    onRetryScheduled: (at) => {
      retryWakeAt = Math.min(retryWakeAt, at.getTime());
      wakeWithin(Math.max(0, at.getTime() - clock().getTime()));
    },
  });
  let jobs = [...options.jobs];
  // Per job, the `now` of its last plan: fires up to it were decided on (see planCatchUp).
  const lastChecked = new Map<string, Date>();
  // Per job, its next fire after the last plan: until then there is nothing to plan, so a
  // tick of a daemon at rest costs a map lookup per job, not a cron walk and a period each.
  const nextFireAt = new Map<string, number>();
  // The earliest next fire seen by the last tick, and the earliest retry this daemon set.
  let fireWakeAt = Number.POSITIVE_INFINITY;
  let retryWakeAt = Number.POSITIVE_INFINITY;
  const reported = new Set<string>();
  let lastTickAt: Date | null = null;
  let stopping = false;
  let timer: unknown = null;
  // When the pending timer fires (clock ms), so a sooner need can bring it forward.
  let timerAt = Number.POSITIVE_INFINITY;
  let looping = false;

  async function tick(): Promise<void> {
    if (stopping) return;
    const now = clock();
    try {
      await ledger.renewLease();
    } catch (error) {
      if (!(error instanceof LedgerLockedError)) throw error;
      stopping = true;
      options.onFatal?.(error);
      return;
    }
    // The daemon goes on (a restart looks in each channel before posting), but says so.
    const fileProblem = ledger.fileProblem();
    if (fileProblem !== null) {
      reportOnce("ledger", fileProblem, "the ledger file is gone or replaced");
    }
    const cache = createRequestCache();
    let since = performance.now();
    for (const job of [...jobs]) {
      if (stopping) return;
      await planJob(job, now, cache);
      if (performance.now() - since >= YIELD_EVERY_MS) {
        await yieldToLoop();
        since = performance.now();
      }
    }
    if (stopping) return;
    await runDueRetries(now, cache);
    runUnrecordedRetries(now, cache);
    lastTickAt = now;
    metrics?.ticked(now, runs.keys().length);
  }

  async function planJob(job: ScheduledJob, now: Date, cache: RequestCache): Promise<void> {
    // A busy job is planned once its run ends, from its last plan: no fire is lost meanwhile.
    if (runs.isRunning(job.id)) return;
    const next = nextFireAt.get(job.id) ?? Number.NEGATIVE_INFINITY;
    if (next > now.getTime() && !elsewhere.has(job.id)) {
      wakeBy(next);
      return;
    }
    const lastCheckedAt = lastChecked.get(job.id) ?? null;
    try {
      const plan = await planCatchUp({
        schedule: job.schedule,
        zone: job.zone,
        catchUpMs: job.catchUpMs,
        now,
        lastCheckedAt,
        keyForFire: (fire) => keyForFire(job, fire),
        isDelivered: (key) => ledger.isSlotDelivered(key),
      });
      lastChecked.set(job.id, now);
      const following = nextFires(job.schedule, job.zone, now, 1)[0]?.getTime();
      nextFireAt.set(job.id, following ?? Number.POSITIVE_INFINITY);
      if (following !== undefined) wakeBy(following);
      for (const { fire, key, reason } of plan.skipped) {
        logger.warn(
          { job: job.id, slot: key, fireAt: fire.toISOString(), reason },
          reason === "superseded"
            ? "missed slot skipped: a later fire of the same job is delivered instead"
            : "missed slot skipped: it is older than the job's catch_up window",
        );
        metrics?.slotFinished(metricLabels(job.team.name, job.kind, job.name), "skipped", now);
      }
      if (lastCheckedAt === null) logNextFire(job, now);
      // A slot another process was sending is looked at again every tick until it settles.
      const due = plan.due ?? elsewhere.get(job.id) ?? null;
      elsewhere.delete(job.id);
      const at = { now, sendTimeoutMs };
      if (due && (await hasDueDestination(ledger, due.key, at))) {
        launch({ job, fire: due.fire, key: due.key, trigger: "schedule", now, cache });
      } else if (due && (await slotSendingElsewhere(ledger, due.key, at))) {
        elsewhere.set(job.id, due);
      }
    } catch (error) {
      reportOnce(job.id, error, "could not plan the job; it does not run until this is fixed");
    }
  }

  async function runDueRetries(now: Date, cache: RequestCache): Promise<void> {
    const bySlot = new Map<string, DueRetry[]>();
    for (const retry of await ledger.dueRetries(now)) {
      bySlot.set(retry.slot.key, [...(bySlot.get(retry.slot.key) ?? []), retry]);
    }
    for (const [key, retries] of bySlot) {
      const { slot } = retries[0] as DueRetry;
      const job = jobs.find((j) => j.id === jobId(slot.team, slot.kind, slot.job));
      if (!job) {
        await giveUp(retries, "its job is no longer in the config");
      } else if (keyForFire(job, slot.fireAt) !== key) {
        await giveUp(retries, "its job now covers another period (the config changed)");
      } else if (!runs.isRunning(job.id)) {
        launch({ job, fire: slot.fireAt, key, trigger: "retry", now, cache });
      }
    }
  }

  // A tick that waits on the ledger may still be planning when stop() has found nothing in
  // flight and let the ledger go: what it decides then is not started.
  function launch(run: SlotLaunch): void {
    if (!stopping) runs.launch(run);
  }

  function runUnrecordedRetries(now: Date, cache: RequestCache): void {
    for (const { job, fire, key } of unrecorded.takeDue(now, jobs, runs.isRunning)) {
      launch({ job, fire, key, trigger: "retry", now, cache });
    }
  }

  async function giveUp(retries: DueRetry[], reason: string): Promise<void> {
    for (const { slot, destination, attempts, lastError } of retries) {
      await ledger.markFailed(
        slot.key,
        destination,
        `${lastError ?? "failed"} (given up: ${reason})`,
        null,
      );
      logger.error({ slot: slot.key, destination, attempts }, `delivery given up: ${reason}`);
      metrics?.delivery(metricLabels(slot.team, slot.kind, slot.job), destination, "gave_up");
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

  function wakeBy(at: number): void {
    if (at < fireWakeAt) fireWakeAt = at;
  }

  async function loop(): Promise<void> {
    looping = true;
    fireWakeAt = Number.POSITIVE_INFINITY;
    // This tick runs every retry due by now; a later one re-arms the wake when it is set.
    if (retryWakeAt <= clock().getTime()) retryWakeAt = Number.POSITIVE_INFINITY;
    try {
      await tick();
    } catch (error) {
      reportOnce(
        "scheduler",
        error,
        "the scheduler tick failed (is the ledger writable?); trying again every tick",
      );
    }
    looping = false;
    if (stopping) return;
    // Sleep until the next fire or retry, but never longer than maxSleepMs: the wall clock may
    // jump (NTP, a suspended laptop or VM) while timers count real time.
    const wakeAt = Math.min(fireWakeAt, retryWakeAt);
    // A slot another process is sending is looked at again every second until it settles.
    const longest = elsewhere.size > 0 ? ELSEWHERE_POLL_MS : maxSleepMs;
    arm(Math.min(longest, Math.max(0, wakeAt - clock().getTime())));
  }

  function arm(sleepMs: number): void {
    if (timer !== null) timers.clearTimeout(timer);
    timerAt = clock().getTime() + sleepMs;
    timer = timers.setTimeout(() => {
      timer = null;
      void loop();
    }, sleepMs);
  }

  /** Brings the next tick forward to within `ms`, unless a tick is running (it re-arms). */
  function wakeWithin(ms: number): void {
    if (stopping || looping || timer === null) return;
    if (timerAt > clock().getTime() + ms) arm(ms);
  }

  return {
    start: () => void loop(),
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
      // A changed schedule has other fires: every job is planned again on the next tick.
      nextFireAt.clear();
      for (const id of elsewhere.keys()) if (!ids.has(id)) elsewhere.delete(id);
    },
    status: () => ({ lastTickAt, running: runs.keys(), stopping }),
  };
}

const realTimers: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};
