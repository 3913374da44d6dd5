/**
 * A clock that moves only when every waiter is asleep: `sleep` registers a timer, and the
 * earliest one fires (the clock jumping to it) once nothing holds time still. A request in
 * transit holds it (see `holdingDispatcher`), so a request is stamped by the fake API at the
 * instant it was let go, never later.
 */
export interface VirtualTime {
  now(): number;
  sleep(ms: number): Promise<void>;
  hold(): void;
  release(): void;
}

export function virtualTime(start: number): VirtualTime {
  let now = start;
  let holds = 0;
  let scheduled = false;
  const timers: { at: number; resolve: () => void }[] = [];
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(advance);
  };
  function advance(): void {
    scheduled = false;
    if (holds > 0 || timers.length === 0) return;
    timers.sort((a, b) => a.at - b.at);
    const next = timers.shift() as (typeof timers)[number];
    now = Math.max(now, next.at);
    next.resolve();
    schedule();
  }
  return {
    now: () => now,
    sleep: (ms) =>
      new Promise<void>((resolve) => {
        timers.push({ at: now + Math.max(0, ms), resolve });
        schedule();
      }),
    hold: () => {
      holds++;
    },
    release: () => {
      holds--;
      schedule();
    },
  };
}
