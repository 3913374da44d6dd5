import { firesBetween, latestFireAtOrBefore } from "./cron-fires.js";

// What a job should run now, decided on every scheduler tick: the latest fire not yet
// delivered, if it is within the catch-up window. Never more than one: after downtime the
// older missed fires are reported as skipped, not replayed in a burst.

// A fire is on time for this long even with no catch-up window: ticks are never exactly on it.
const ON_TIME_MS = 60_000;

export interface CatchUpInput {
  /** The job's cron expression. */
  schedule: string;
  /** The team's IANA zone. */
  zone: string;
  /** How late a fire may still be delivered (the job's `catch_up`; at least a minute). */
  catchUpMs: number;
  now: Date;
  /**
   * The `now` of this job's previous plan in this process, or null on the first plan after
   * start-up. Fires at or before it were already decided on, so a slot whose delivery is
   * failing and waiting for its retry is not started again on the next tick.
   */
  lastCheckedAt: Date | null;
  /** The slot key a fire delivers (team, job and the period the fire covers). */
  keyForFire: (fire: Date) => string;
  /** Whether the slot is done (e.g. `ledger.isSlotDelivered`). */
  isDelivered: (key: string) => boolean;
}

export interface PlannedFire {
  fire: Date;
  key: string;
}

export interface SkippedFire extends PlannedFire {
  /** superseded: a later fire in the window is delivered instead; outside-window: too late. */
  reason: "superseded" | "outside-window";
}

export interface CatchUpPlan {
  /** The one fire to run now, or null. */
  due: PlannedFire | null;
  /** Undelivered fires passed over, newest first, one per key: for a log line. */
  skipped: SkippedFire[];
}

/** Decides which single fire of a job is due now and which missed ones are skipped. */
export function planCatchUp(input: CatchUpInput): CatchUpPlan {
  const { schedule, zone, now, lastCheckedAt } = input;
  const windowStart = now.getTime() - Math.max(ON_TIME_MS, input.catchUpMs);
  const checkedUntil = lastCheckedAt?.getTime() ?? Number.NEGATIVE_INFINITY;
  const delivered = memoize(input.isDelivered);

  // Fires in the window not yet decided on; before the window, only the latest one matters.
  const from = new Date(Math.max(checkedUntil, windowStart - 1));
  const inWindow = checkedUntil >= now.getTime() ? [] : firesBetween(schedule, zone, from, now);
  const tooLate =
    checkedUntil < windowStart - 1
      ? latestFireAtOrBefore(
          schedule,
          zone,
          new Date(windowStart - 1),
          beforeWindowFrom(checkedUntil),
        )
      : null;

  const latest = inWindow.at(-1);
  const latestKey = latest ? input.keyForFire(latest) : null;
  const due =
    latest && latestKey && !delivered(latestKey) ? { fire: latest, key: latestKey } : null;

  const skipped: SkippedFire[] = [];
  const seen = new Set<string>(latestKey ? [latestKey] : []);
  const candidates = [
    ...inWindow
      .slice(0, -1)
      .reverse()
      .map((fire) => ({ fire, reason: "superseded" as const })),
    ...(tooLate ? [{ fire: tooLate, reason: "outside-window" as const }] : []),
  ];
  for (const { fire, reason } of candidates) {
    const key = input.keyForFire(fire);
    if (seen.has(key)) continue;
    seen.add(key);
    if (!delivered(key)) skipped.push({ fire, key, reason });
  }
  return { due, skipped };
}

function beforeWindowFrom(checkedUntil: number): Date {
  // After start-up there is no lower bound; any older fire is just as undeliverable.
  return new Date(Number.isFinite(checkedUntil) ? checkedUntil + 1 : -8.64e15);
}

function memoize(predicate: (key: string) => boolean): (key: string) => boolean {
  const answers = new Map<string, boolean>();
  return (key) => {
    let answer = answers.get(key);
    if (answer === undefined) {
      answer = predicate(key);
      answers.set(key, answer);
    }
    return answer;
  };
}
