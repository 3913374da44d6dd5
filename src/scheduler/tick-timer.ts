import type { Timers } from "./daemon-types.js";

// When the scheduler ticks next. The times it must wake for are plain data with a pure rule for
// the sleep; the one timer is armed, brought forward and cancelled through named transitions.

/** What the scheduler must wake for (clock ms): the next fire it saw, the earliest retry it set. */
export interface WakeTimes {
  fireAt: number;
  retryAt: number;
}

/** Nothing to wake for yet. */
export function noWake(): WakeTimes {
  return { fireAt: Number.POSITIVE_INFINITY, retryAt: Number.POSITIVE_INFINITY };
}

/**
 * The wake times a tick starting at `nowMs` begins with: fires are seen afresh by the tick;
 * a retry due by now is run by it (a later one keeps its wake).
 */
export function atTickStart(wake: WakeTimes, nowMs: number): WakeTimes {
  return {
    fireAt: Number.POSITIVE_INFINITY,
    retryAt: wake.retryAt <= nowMs ? Number.POSITIVE_INFINITY : wake.retryAt,
  };
}

/**
 * How long to sleep after a tick: until the next fire or retry, but never longer than
 * `longestMs` — the wall clock may jump (NTP, a suspended laptop or VM) while timers count real
 * time, and a slot another process is sending is looked at again soon.
 */
export function sleepAfterTick(wake: WakeTimes, nowMs: number, longestMs: number): number {
  return Math.min(longestMs, Math.max(0, Math.min(wake.fireAt, wake.retryAt) - nowMs));
}

export interface TickTimer {
  /** The next tick in `ms`, replacing the one armed. */
  arm(ms: number): void;
  /** Brings the next tick forward to within `ms`; not while a tick runs (it re-arms) or when none is armed. */
  bringForward(ms: number): void;
  /** No next tick (stopping). */
  cancel(): void;
}

/** One timer calling `onTick`, on `timers` and `clock`. */
export function createTickTimer(timers: Timers, clock: () => Date, onTick: () => void): TickTimer {
  let handle: unknown = null;
  // When the armed timer fires (clock ms), so a sooner need can bring it forward.
  let firesAt = Number.POSITIVE_INFINITY;
  const timer: TickTimer = {
    arm(ms) {
      if (handle !== null) timers.clearTimeout(handle);
      firesAt = clock().getTime() + ms;
      handle = timers.setTimeout(() => {
        // Null while the tick runs: nothing brings forward a tick that is running.
        handle = null;
        onTick();
      }, ms);
    },
    bringForward(ms) {
      if (handle !== null && firesAt > clock().getTime() + ms) timer.arm(ms);
    },
    cancel() {
      if (handle !== null) timers.clearTimeout(handle);
      handle = null;
    },
  };
  return timer;
}
