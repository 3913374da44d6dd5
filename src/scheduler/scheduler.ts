import { setImmediate as yieldToLoop } from "node:timers/promises";
import type { AlertConfig } from "../config/types.js";
import { LedgerLockedError } from "../errors.js";
import { createRequestCache, type RequestCache } from "../insights/collect-insights.js";
import { SEND_TIMEOUT_MS } from "../state/delivery-due.js";
import type { DueRetry } from "../state/ledger.js";
import { nextFires } from "../timetable/cron-fires.js";
import { planCatchUp } from "../timetable/plan-catch-up.js";
import {
  DEFAULT_RETRY_DELAYS_MS,
  MAX_RETRY_SPAN_MS,
  nextAttemptAt,
} from "../timetable/retry-delays.js";
import type { Daemon, DaemonOptions, Timers } from "./daemon-types.js";
import {
  dueDestinationsOnly,
  hasDueDestination,
  slotSendingElsewhere,
} from "./due-destinations.js";
import { createFailureLog } from "./failure-log.js";
import { createIncidentFires } from "./incident-fires.js";
import { createJobPlans, type DueSlot } from "./job-plans.js";
import { jobId, keyForFire, type ScheduledJob } from "./jobs.js";
import { bySlot, giveUp, logNextFire, logSkipped } from "./plan-reports.js";
import { createSlotRuns, type SlotLaunch } from "./slot-runs.js";
import { atTickStart, createTickTimer, noWake, sleepAfterTick } from "./tick-timer.js";
import { createUnrecordedRetries } from "./unrecorded-retries.js";

export type * from "./daemon-types.js";

// Planning one job with hours of catch-up takes tens of milliseconds, and a config may have
// hundreds: a tick hands the event loop back at least this often, so /healthz, timers and the
// deliveries in flight are never held up for the whole first tick.
const YIELD_EVERY_MS = 20;
// While a due slot is left to another process's send in flight, it is looked at this often.
const ELSEWHERE_POLL_MS = 1_000;

/**
 * When things run. Every tick, for each job: the planner (`timetable/plan-catch-up.ts`) names
 * the one fire due now — on time, or the latest missed one within `catch_up` — and it runs
 * unless the job is already running; then failed deliveries whose retry is due run again for
 * their slot's recorded fire. The ledger is the source of truth, so a restart picks up where
 * the last process stopped. No report logic here: `runSlot` does a slot.
 */
export function createDaemon(options: DaemonOptions): Daemon {
  const { ledger, logger } = options;
  const metrics = options.metrics ?? null;
  const clock = options.now ?? (() => new Date());
  const maxSleepMs = options.tickMs ?? 5_000;
  const sendTimeoutMs = options.sendTimeoutMs ?? SEND_TIMEOUT_MS;
  const plans = createJobPlans();
  const failures = createFailureLog(logger);
  const timer = createTickTimer(options.timers ?? realTimers, clock, () => void loop());
  let wake = noWake();
  let jobs = [...options.jobs];
  let lastTickAt: Date | null = null;
  let stopping = false;

  const unrecorded = createUnrecordedRetries(
    logger,
    async (key) => (await ledger.getSlot(key)) !== null,
  );
  const claim = { owner: options.owner ?? `daemon pid ${process.pid}`, sendTimeoutMs };
  const retryDelaysMs = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  const incidents = options.incidents
    ? createIncidentFires(options.incidents, {
        logger,
        clock,
        retryDelaysMs,
        // Its fire instants are this process's memory only, so nothing plans an incident's
        // slot again after a restart: its claim leaves it due should this send never end. An
        // incident is new to the ledger that records it, so a first send does not look in the
        // channel first; a retry after an attempt whose outcome is unknown does.
        ledger: () =>
          dueDestinationsOnly(ledger, { ...claim, retryIfUnfinished: true, lookFirst: false }),
      })
    : null;
  let incidentsRunning = false;
  const runs = createSlotRuns({
    claim,
    onLeftToOthers: (job, due) => {
      plans.leftElsewhere(job.id, due);
      wakeWithin(ELSEWHERE_POLL_MS);
    },
    ledger,
    runSlot: options.runSlot,
    ...(options.maxRunsInFlight ? { maxInFlight: options.maxRunsInFlight } : {}),
    logger,
    metrics,
    clock,
    retryDelaysMs,
    timers: options.timers ?? realTimers,
    onUnrecordedFailure: (job, due, retryAt) => unrecorded.failed({ job, ...due }, retryAt),
    onRetryScheduled: (at) => {
      wake = { ...wake, retryAt: Math.min(wake.retryAt, at.getTime()) };
      wakeWithin(Math.max(0, at.getTime() - clock().getTime()));
    },
  });

  /** Ticks, then sleeps until the next fire or retry (see sleepAfterTick). */
  async function loop(): Promise<void> {
    wake = atTickStart(wake, clock().getTime());
    try {
      await tick();
      failures.recovered("scheduler");
    } catch (error) {
      failures.failed(
        "scheduler",
        error,
        "the scheduler tick failed (is the ledger writable?); trying again every tick",
      );
    }
    if (stopping) return;
    const longest = plans.anyElsewhere() ? ELSEWHERE_POLL_MS : maxSleepMs;
    timer.arm(sleepAfterTick(wake, clock().getTime(), longest));
  }

  async function tick(): Promise<void> {
    if (stopping) return;
    const now = clock();
    if (!(await keepLease())) return;
    noteFileProblem();
    const cache = createRequestCache();
    let since = performance.now();
    for (const job of [...jobs]) {
      if (stopping) return;
      const wasRunning = runs.isRunning(job.id);
      await planJob(job, now, cache);
      // A slot just launched puts its first requests on the wire before the next job is
      // planned, so the API answers them while this tick plans the rest.
      const launched = !wasRunning && runs.isRunning(job.id);
      if (launched || performance.now() - since >= YIELD_EVERY_MS) {
        await yieldToLoop();
        since = performance.now();
      }
    }
    if (stopping) return;
    await runDueRetries(now, cache);
    for (const { job, fire, key } of unrecorded.takeDue(now, jobs, runs.isRunning)) {
      launch({ job, fire, key, trigger: "retry", now, cache });
    }
    startIncidents(now);
    lastTickAt = now;
    metrics?.ticked(now, runs.keys().length);
  }

  /**
   * The incident step for the fire instants whose alerts ran here, once they ended (see
   * incident-fires.ts); in the background, one pass at a time, waited for at shutdown.
   */
  function startIncidents(now: Date): void {
    if (!incidents || incidentsRunning || stopping) return;
    incidentsRunning = true;
    runs
      .runUnscheduled("incidents", () => incidents.run(now, jobs, runs.isRunning))
      .then(
        () => failures.recovered("incidents"),
        (error: unknown) =>
          failures.failed("incidents", error, "the incident step failed; trying again next tick"),
      )
      .finally(() => {
        incidentsRunning = false;
      });
  }

  /** False when another daemon took the ledger over: this one stops. */
  async function keepLease(): Promise<boolean> {
    try {
      await ledger.renewLease();
      return true;
    } catch (error) {
      if (!(error instanceof LedgerLockedError)) throw error;
      stopping = true;
      options.onFatal?.(error);
      return false;
    }
  }

  // The daemon goes on (a restart looks in each channel before posting), but says so.
  function noteFileProblem(): void {
    const problem = ledger.fileProblem();
    if (problem === null) failures.recovered("ledger");
    else failures.failed("ledger", problem, "the ledger file is gone or replaced");
  }

  async function planJob(job: ScheduledJob, now: Date, cache: RequestCache): Promise<void> {
    // A busy job is planned once its run ends, from its last plan: no fire is lost meanwhile.
    if (runs.isRunning(job.id)) return;
    const resting = plans.restingUntil(job.id, now);
    if (resting !== null) return wakeBy(resting);
    const lastPlannedAt = plans.lastPlannedAt(job.id);
    try {
      // Asked once per job and process: later plans start after this one, so after it too.
      const firstSeenAt =
        lastPlannedAt ??
        (await ledger.jobFirstSeen({ team: job.team.name, kind: job.kind, job: job.name }, now));
      const plan = await planCatchUp({
        firstSeenAt,
        schedule: job.schedule,
        zone: job.zone,
        catchUpMs: job.catchUpMs,
        now,
        lastCheckedAt: lastPlannedAt,
        keyForFire: (fire) => keyForFire(job, fire),
        isDelivered: (key) => ledger.isSlotDelivered(key),
      });
      const next = nextFires(job.schedule, job.zone, now, 1)[0];
      const following = next?.getTime();
      plans.planned(job.id, now, following);
      if (following !== undefined) wakeBy(following);
      for (const skipped of plan.skipped) logSkipped(job, skipped, now, { logger, metrics });
      if (lastPlannedAt === null) logNextFire(job, next, logger);
      // A slot another process was sending is looked at again every tick until it settles.
      const leftElsewhere = plans.takeElsewhere(job.id);
      await runIfDue(job, plan.due ?? leftElsewhere, now, cache);
      failures.recovered(job.id);
    } catch (error) {
      failures.failed(job.id, error, "could not plan the job; it does not run until this is fixed");
    }
  }

  /** Runs the due slot if a destination of it is due; leaves it to a process sending it. */
  async function runIfDue(
    job: ScheduledJob,
    due: DueSlot | null,
    now: Date,
    cache: RequestCache,
  ): Promise<void> {
    if (!due) return;
    const at = { now, sendTimeoutMs };
    if (await hasDueDestination(ledger, due.key, at)) {
      launch({ job, fire: due.fire, key: due.key, trigger: "schedule", now, cache });
    } else if (await slotSendingElsewhere(ledger, due.key, at)) {
      plans.leftElsewhere(job.id, due);
    }
  }

  async function runDueRetries(now: Date, cache: RequestCache): Promise<void> {
    // Retries whose job is gone or moved are given up together, after the loop: a ledger
    // with thousands of them is worked through in batches, with one line each reason.
    const jobGone: DueRetry[] = [];
    const periodMoved: DueRetry[] = [];
    const acknowledgerGone: DueRetry[] = [];
    const acknowledgementCleared: DueRetry[] = [];
    for (const retries of bySlot(await ledger.dueRetries(now))) {
      const { slot } = retries[0] as DueRetry;
      if (slot.kind === "incident" && incidents) {
        incidents.retry(slot.key);
        continue;
      }
      if (slot.kind === "acknowledgement") {
        // Passed on for the fire's alert: sent again to a recorded destination while the
        // config still has that alert and passes acknowledgements on to that destination,
        // and while no new escalation of the fire has cleared the acknowledgement.
        const alert = jobs.find((j) => j.id === jobId(slot.team, "alert", slot.job));
        const resend = options.acknowledgements;
        if (alert?.kind !== "alert") {
          jobGone.push(...retries);
        } else if (resend && (await resend.cleared(slot.key))) {
          acknowledgementCleared.push(...retries);
        } else if (resend) {
          const configured = resend.destinations(slot.key, alert.alert);
          const [kept, gone] = partition(retries, (r) => configured.includes(r.destination));
          acknowledgerGone.push(...gone);
          if (kept.length > 0) resendAcknowledgement(slot, alert.alert, kept);
        }
        continue;
      }
      const job = jobs.find((j) => j.id === jobId(slot.team, slot.kind, slot.job));
      if (!job) jobGone.push(...retries);
      else if (keyForFire(job, slot.fireAt) !== slot.key) periodMoved.push(...retries);
      else if (!runs.isRunning(job.id)) {
        launch({ job, fire: slot.fireAt, key: slot.key, trigger: "retry", now, cache });
      }
    }
    const reporting = { ledger, logger, metrics };
    await giveUp(jobGone, "its job is no longer in the config", reporting);
    await giveUp(periodMoved, "its job now covers another period (the config changed)", reporting);
    await giveUp(
      acknowledgerGone,
      "its alert no longer passes acknowledgements on to this destination (its PagerDuty was removed or its routing key changed); acknowledge the incident in PagerDuty itself",
      reporting,
    );
    await giveUp(
      acknowledgementCleared,
      "the fire escalated again since and its acknowledgement was cleared; press Acknowledge on the fire again to pass it on",
      reporting,
    );
  }

  /**
   * An acknowledgement's failed send, again: one of the daemon's runs (waited for at shutdown),
   * on the delivery backoff until a day after the press. While it sends, the ledger has it due
   * only once the send timeout has passed, so the next tick does not start it twice.
   */
  function resendAcknowledgement(
    slot: DueRetry["slot"],
    alert: AlertConfig,
    retries: readonly DueRetry[],
  ): void {
    const resend = options.acknowledgements;
    if (!resend || stopping) return;
    const recorded = retries.map((r) => r.destination);
    const deadline = new Date(slot.fireAt.getTime() + MAX_RETRY_SPAN_MS);
    const context = {
      // Nothing plans the slot again: its claim leaves it due should this send never end.
      ledger: dueDestinationsOnly(ledger, { ...claim, retryIfUnfinished: true, lookFirst: false }),
      logger,
      retryAt: (attempts: number, notBefore?: Date) =>
        nextAttemptAt(attempts, clock(), deadline, retryDelaysMs, notBefore),
    };
    runs
      .runUnscheduled(slot.key, () => resend.resend(slot.key, alert, recorded, context))
      .then(
        () => failures.recovered(slot.key),
        (error: unknown) =>
          failures.failed(slot.key, error, "could not send an acknowledgement again; retrying"),
      );
  }

  // A tick that waits on the ledger may still be planning when stop() has found nothing in
  // flight and let the ledger go: what it decides then is not started.
  function launch(run: SlotLaunch): void {
    if (stopping) return;
    incidents?.noted(run.job, run.fire);
    runs.launch(run);
  }

  function wakeBy(at: number): void {
    if (at < wake.fireAt) wake = { ...wake, fireAt: at };
  }

  function wakeWithin(ms: number): void {
    if (!stopping) timer.bringForward(ms);
  }

  return {
    start: () => void loop(),
    tick,
    idle: runs.idle,
    runUnscheduled: (key, work) => (stopping ? null : runs.runUnscheduled(key, work)),
    async stop(graceMs) {
      stopping = true;
      timer.cancel();
      runs.dropQueued();
      if (runs.keys().length === 0) return [];
      logger.info({ running: runs.keys(), graceMs }, "stopping: waiting for slots in flight");
      return (await runs.settleWithin(graceMs)) ? [] : runs.keys();
    },
    replaceJobs(next) {
      jobs = [...next];
      plans.replaced(new Set(jobs.map((j) => j.id)));
    },
    status: () => ({ lastTickAt, running: runs.keys(), stopping }),
  };
}

const realTimers: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** The items `keep` holds for, and the others, each in their order. */
function partition<T>(items: readonly T[], keep: (item: T) => boolean): [T[], T[]] {
  return [items.filter(keep), items.filter((item) => !keep(item))];
}
