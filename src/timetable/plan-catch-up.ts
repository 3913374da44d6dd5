import { latestFireAtOrBefore } from "./cron-fires.js";

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
  /**
   * When the ledger first saw the job (`Ledger.jobFirstSeen`): a missed fire before it is not
   * skipped, the job did not exist. It bounds only what is reported: a fire within the
   * catch-up window is still delivered.
   */
  firstSeenAt: Date;
  /** The slot key a fire delivers (team, job and the period the fire covers). */
  keyForFire: (fire: Date) => string;
  /** Whether the slot is done (e.g. `ledger.isSlotDelivered`). */
  isDelivered: (key: string) => boolean | Promise<boolean>;
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

/**
 * Decides which single fire of a job is due now and which missed ones are skipped. Its cost
 * does not grow with the fires in the window: an every-minute job with a 6 h catch-up is
 * planned like a daily one. Keys never go back in time (a later fire covers the same period or
 * a later one), so the fires of one slot are a contiguous run, found by bisection on time.
 */
export async function planCatchUp(input: CatchUpInput): Promise<CatchUpPlan> {
  const { schedule, zone, now, lastCheckedAt } = input;
  const windowStart = now.getTime() - Math.max(ON_TIME_MS, input.catchUpMs);
  const checkedUntil = lastCheckedAt?.getTime() ?? Number.NEGATIVE_INFINITY;
  const delivered = memoize(input.isDelivered);
  const keyOf = memoizeFire(input.keyForFire);

  // Fires in (from, now] were not decided on yet; before the window only the latest matters.
  const from = Math.max(checkedUntil, windowStart - 1);
  const latestIn = (at: number) =>
    at <= from ? null : latestFireAtOrBefore(schedule, zone, new Date(at), new Date(from + 1));
  const latest = checkedUntil >= now.getTime() ? null : latestIn(now.getTime());
  const latestKey = latest ? keyOf(latest) : null;
  const due =
    latest && latestKey && !(await delivered(latestKey)) ? { fire: latest, key: latestKey } : null;

  const candidates: { fire: Date; reason: SkippedFire["reason"] }[] = [];
  // Each earlier slot in the window, newest first: the last fire before the current slot's run.
  // Only a fire whose predecessor names the same slot (an every-minute job) needs the run's
  // start bisected; most jobs have one fire in the window, or fires of different slots.
  for (let fire = latest; fire; ) {
    const before = latestIn(fire.getTime() - 1);
    const previous =
      before === null || keyOf(before) !== keyOf(fire)
        ? before
        : latestIn(runStart(fire, keyOf(fire), from, latestIn, keyOf) - 1);
    if (previous) candidates.push({ fire: previous, reason: "superseded" });
    fire = previous;
  }
  if (checkedUntil < windowStart - 1) {
    const tooLate = latestFireAtOrBefore(
      schedule,
      zone,
      new Date(windowStart - 1),
      beforeWindowFrom(checkedUntil),
    );
    if (tooLate) candidates.push({ fire: tooLate, reason: "outside-window" });
  }

  const skipped: SkippedFire[] = [];
  const seen = new Set<string>(latestKey ? [latestKey] : []);
  for (const { fire, reason } of candidates) {
    if (fire < input.firstSeenAt) continue;
    const key = keyOf(fire);
    if (seen.has(key)) continue;
    seen.add(key);
    if (!(await delivered(key))) skipped.push({ fire, key, reason });
  }
  return { due, skipped };
}

/**
 * The earliest instant in (from, fire] whose latest fire still names `key`: bisection on time
 * to the minute (fires are whole minutes apart), a handful of cron steps whatever the window.
 */
function runStart(
  fire: Date,
  key: string,
  from: number,
  latestIn: (at: number) => Date | null,
  keyOf: (fire: Date) => string,
): number {
  let outside = from; // the latest fire at or before this names another slot, or none
  let inside = fire.getTime(); // the latest fire at or before this names `key`
  while (inside - outside > MINUTE_MS) {
    const mid = outside + Math.floor((inside - outside) / 2);
    const probe = latestIn(mid);
    if (probe && keyOf(probe) === key) inside = mid;
    else outside = mid;
  }
  return inside;
}

const MINUTE_MS = 60_000;

function beforeWindowFrom(checkedUntil: number): Date {
  // After start-up there is no lower bound; any older fire is just as undeliverable.
  return new Date(Number.isFinite(checkedUntil) ? checkedUntil + 1 : -8.64e15);
}

function memoize(
  predicate: (key: string) => boolean | Promise<boolean>,
): (key: string) => Promise<boolean> {
  const answers = new Map<string, boolean>();
  return async (key) => {
    let answer = answers.get(key);
    if (answer === undefined) {
      answer = await predicate(key);
      answers.set(key, answer);
    }
    return answer;
  };
}

function memoizeFire(keyForFire: (fire: Date) => string): (fire: Date) => string {
  const keys = new Map<number, string>();
  return (fire) => {
    let key = keys.get(fire.getTime());
    if (key === undefined) {
      key = keyForFire(fire);
      keys.set(fire.getTime(), key);
    }
    return key;
  };
}
