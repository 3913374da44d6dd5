import type { RequestCache } from "../insights/collect-insights.js";
import type { Logger } from "../logger.js";
import type { DaemonMetrics } from "../ops/metrics.js";
import type { ClaimOptions } from "../state/ledger.js";
import type { DaemonLedger, RunSlot, Timers } from "./daemon-types.js";
import {
  dueDestinationsOnly,
  hasDueDestination,
  slotSendingElsewhere,
} from "./due-destinations.js";
import { metricLabels, type ScheduledJob } from "./jobs.js";
import { slotRetryAt } from "./retry-schedule.js";
import { settleSlot } from "./settle-slot.js";

// The slot runs in flight: at most one per job, each with its retry policy and a child logger
// that carries what the scheduler knows (fire instant, lag, why it runs), settled in the
// ledger when it ends, and waited for at shutdown.

export interface SlotRunsOptions {
  ledger: DaemonLedger;
  /** Who claims this daemon's sends, and how long a claim stays its sender's. */
  claim: Omit<ClaimOptions, "take">;
  /** A run ended leaving some of its slot to another process's send in flight: look again later. */
  onLeftToOthers(job: ScheduledJob, due: { fire: Date; key: string }): void;
  runSlot: RunSlot;
  /**
   * Runs at once at most (default no limit: `state.max_slots_in_flight` in the daemon). More
   * wait their turn, oldest fire first, so a burst of a thousand slots holds the memory of
   * this many; replicas sharing a ledger each take turns from their own queue, and a slot
   * another replica ran meanwhile is passed over when its turn comes.
   */
  maxInFlight?: number;
  logger: Logger;
  metrics: DaemonMetrics | null;
  clock: () => Date;
  retryDelaysMs: readonly number[];
  timers: Timers;
  /** A failed delivery will be due again at `at`: the scheduler wakes for it. */
  onRetryScheduled?: (at: Date) => void;
  /**
   * A run failed before its slot was recorded (an alert evaluation whose insights could not be
   * fetched): the ledger holds nothing to retry, so the scheduler keeps the retry. `retryAt`
   * gives the next attempt's time (null past the slot's deadline).
   */
  onUnrecordedFailure?: (
    job: ScheduledJob,
    due: { fire: Date; key: string },
    retryAt: (attempts: number) => Date | null,
  ) => Promise<void>;
}

export interface SlotLaunch {
  job: ScheduledJob;
  fire: Date;
  key: string;
  /** schedule: a fire came due; retry: a failed destination's retry came due. */
  trigger: "schedule" | "retry";
  now: Date;
  cache: RequestCache;
}

export interface SlotRuns {
  /** Whether a slot of the job runs, or waits its turn to. */
  isRunning(jobId: string): boolean;
  /** Keys of the slots running now. */
  keys(): string[];
  launch(run: SlotLaunch): void;
  /**
   * Runs a slot asked for outside the schedule (a slash command) under `key`: listed, counted,
   * waited for.
   */
  runUnscheduled<T>(key: string, work: () => Promise<T>): Promise<T>;
  idle(): Promise<void>;
  /** Forgets the slots waiting their turn (the daemon stops): they stay due in the ledger. */
  dropQueued(): void;
  /** Waits up to `ms` for every run; true when they all ended. */
  settleWithin(ms: number): Promise<boolean>;
}

/** The registry of runs in flight, launching each through `runSlot`. */
export function createSlotRuns(options: SlotRunsOptions): SlotRuns {
  const { ledger, metrics, clock, timers, claim } = options;
  const { sendTimeoutMs } = claim;
  const running = new Map<string | symbol, string>(); // job id (or a booked run) → slot key
  const inFlight = new Set<Promise<void>>();
  const maxInFlight = options.maxInFlight ?? Number.POSITIVE_INFINITY;
  // Launches waiting for a run to end, oldest fire first (ties in launch order).
  const queued: SlotLaunch[] = [];

  function launch(run: SlotLaunch): void {
    if (running.size < maxInFlight) {
      start(run);
      return;
    }
    const at = queued.findIndex((q) => q.fire.getTime() > run.fire.getTime());
    queued.splice(at === -1 ? queued.length : at, 0, run);
  }

  /** A run ended: the oldest fire waiting takes its place, if it is still due. */
  async function startNext(): Promise<void> {
    while (running.size < maxInFlight) {
      const next = queued.shift();
      if (!next) return;
      // It waited: another process (a replica, `run`) may have delivered it meanwhile.
      const at = { now: clock(), sendTimeoutMs };
      if (await hasDueDestination(ledger, next.key, at)) start({ ...next, now: at.now });
      else if (await slotSendingElsewhere(ledger, next.key, at)) {
        options.onLeftToOthers(next.job, next);
      }
    }
  }

  function start({ job, fire, key, trigger, now, cache }: SlotLaunch): void {
    const lagMs = now.getTime() - fire.getTime();
    if (trigger === "schedule") metrics?.slotStarted(labelsOf(job), lagMs);
    // The slot itself is on each line that concerns it (as "slot": the logger redacts "key").
    const logger = options.logger.child({
      job: job.id,
      fireAt: fire.toISOString(),
      lagMs,
      trigger,
    });
    const retryAt = slotRetryAt(job, fire, {
      clock,
      delaysMs: options.retryDelaysMs,
      ...(options.onRetryScheduled ? { onScheduled: options.onRetryScheduled } : {}),
    });
    const settle = async (deliveries: Parameters<typeof settleSlot>[3], error: unknown) => {
      const at = { now: clock(), sendTimeoutMs };
      await settleSlot(
        { ledger, metrics, logger, retryAt, now: at.now, launched: { now, sendTimeoutMs } },
        job,
        key,
        deliveries,
        error,
      );
      if (await slotSendingElsewhere(ledger, key, at)) options.onLeftToOthers(job, { fire, key });
      if (error !== null && !(await ledger.getSlot(key))) {
        await options.onUnrecordedFailure?.(job, { fire, key }, retryAt);
      }
    };

    // On a shared ledger the run is claimed first: a replica that planned the same fire leaves
    // it alone (it is fetched and rendered once) and takes it over if this one dies. A ledger
    // of one daemon needs no run claim: a restart after a crash goes on at once.
    const runSlot = async () => {
      const taken = ledger.shared
        ? await ledger.claimSlotRun(key, claim.owner, sendTimeoutMs)
        : { token: 0, takenOver: false };
      if (taken?.takenOver) metrics?.claimTakenOver(labelsOf(job), "run");
      if (!taken) {
        logger.debug({ slot: key }, "another process is running this slot; left to it");
        options.onLeftToOthers(job, { fire, key });
        return;
      }
      try {
        const lookFirst = await ledgerNewerThan(job, fire);
        const outcome = await options
          .runSlot(job, fire, {
            ledger: dueDestinationsOnly(ledger, {
              ...claim,
              onTakenOver: () => metrics?.claimTakenOver(labelsOf(job), "delivery"),
              lookFirst,
            }),
            cache,
            logger,
            retryAt,
          })
          .then(
            (ran) => ({ ran, error: null }),
            (error: unknown) => ({ ran: null, error }),
          );
        await settle(outcome.ran?.deliveries ?? [], outcome.error);
      } finally {
        if (ledger.shared) await ledger.releaseSlotRun(key, taken);
      }
    };

    running.set(job.id, key);
    const run = runSlot()
      .catch((error: unknown) =>
        logger.error({ slot: key, err: String(error) }, "could not record the slot's outcome"),
      )
      .finally(() => {
        running.delete(job.id);
        inFlight.delete(run);
        if (queued.length > 0) {
          const next = startNext().catch((error: unknown) =>
            options.logger.error({ err: String(error) }, "could not start the next slot waiting"),
          );
          inFlight.add(next);
          void next.finally(() => inFlight.delete(next));
        }
      });
    inFlight.add(run);
  }

  /**
   * Whether the ledger may not know of an earlier delivery of the slot of `fire`: the job's
   * first sighting in it is later than the fire (the ledger was lost or replaced since), or the
   * file was replaced under the daemon. Then the run looks in each destination before posting.
   */
  async function ledgerNewerThan(job: ScheduledJob, fire: Date): Promise<boolean> {
    if (ledger.fileProblem() !== null) return true;
    const ref = { team: job.team.name, kind: job.kind, job: job.name };
    return (await ledger.jobFirstSeen(ref, clock())).getTime() > fire.getTime();
  }

  function runUnscheduled<T>(key: string, work: () => Promise<T>): Promise<T> {
    // Its own entry, never a job's: a scheduled run of the same job is not held back by it
    // (the ledger's claims keep the two from sending one slot twice).
    const id = Symbol(key);
    running.set(id, key);
    const result = work();
    const run = result
      .then(
        () => {},
        () => {},
      )
      .finally(() => {
        running.delete(id);
        inFlight.delete(run);
      });
    inFlight.add(run);
    return result;
  }

  return {
    isRunning: (jobId) => running.has(jobId) || queued.some((q) => q.job.id === jobId),
    keys: () => [...running.values()],
    launch,
    runUnscheduled,
    dropQueued: () => {
      queued.length = 0;
    },
    idle: async () => {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    async settleWithin(ms) {
      if (inFlight.size === 0) return true;
      let handle: unknown = null;
      const ended = await Promise.race([
        Promise.allSettled([...inFlight]).then(() => true),
        new Promise<boolean>((resolve) => {
          handle = timers.setTimeout(() => resolve(false), ms);
        }),
      ]);
      timers.clearTimeout(handle);
      return ended;
    },
  };
}

function labelsOf(job: ScheduledJob) {
  return metricLabels(job.team.name, job.kind, job.name);
}
