import { describe, expect, it } from "vitest";
import { aDigest, aTeam, useHarness } from "./daemon-harness.js";

/**
 * A burst is bounded: at most `maxRunsInFlight` (state.max_slots_in_flight) slots run at once
 * in a process; the rest wait their turn in fire order, and every one runs.
 */

const harness = useHarness();

/** A gate each run waits at until the test opens it, counting the runs inside at once. */
function gates() {
  const waiting: (() => void)[] = [];
  let arrived: (() => void) | null = null;
  const state = { inside: 0, most: 0 };
  return {
    state,
    gate: () =>
      new Promise<void>((resolve) => {
        state.inside++;
        state.most = Math.max(state.most, state.inside);
        waiting.push(() => {
          state.inside--;
          resolve();
        });
        arrived?.();
      }),
    /** Waits until some run is at the gate, then lets the first one through. */
    async openOne() {
      while (waiting.length === 0) await new Promise<void>((resolve) => (arrived = resolve));
      waiting.shift()?.();
    },
  };
}

describe("slots in flight", () => {
  it("runs at most N slots at once and queues the rest in fire order", async () => {
    // Ten teams whose daily digests fired at 08:50 … 08:59, listed latest first.
    const teams = Array.from({ length: 10 }, (_, i) =>
      aTeam({ name: `team${i}`, digests: [aDigest({ schedule: `${59 - i} 8 * * *` })] }),
    );
    const { gate, state, openOne } = gates();
    const h = await harness(teams, { gate, maxRunsInFlight: 3, start: "2026-06-10T07:00:00Z" });
    await h.tickOnly("2026-06-10T07:00:30Z"); // 09:00:30 in Berlin
    for (let opened = 0; opened < 10; opened++) await openOne();
    await h.daemon.idle();
    expect(h.runs).toHaveLength(10);
    expect(state.most).toBe(3);
    // The first three started as they were planned; the queued ones go oldest fire first.
    const queued = h.runs.slice(3).map((r) => r.fire.getTime());
    expect(queued).toEqual([...queued].sort((a, b) => a - b));
  });
});
