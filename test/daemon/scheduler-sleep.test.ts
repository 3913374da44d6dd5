import { describe, expect, it } from "vitest";
import type { Timers } from "../../src/scheduler/scheduler.js";
import { aDigest, aTeam, useHarness } from "./daemon-harness.js";

// A daemon at rest should cost nothing: it sleeps until the next fire it knows of (never longer
// than tickMs, to notice a clock jump or a suspend), and a tick plans no job whose next fire is
// still ahead.

const harness = useHarness();

/** Timers that only record the sleeps asked for; the test runs the ticks itself. */
function recordingTimers() {
  const sleeps: number[] = [];
  const timers: Timers = {
    setTimeout: (_callback, ms) => {
      sleeps.push(ms);
      return sleeps.length;
    },
    clearTimeout: () => {},
  };
  return { sleeps, timers };
}

async function settled(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe("the scheduler at rest", () => {
  it("sleeps until the next fire when it is near", async () => {
    const { sleeps, timers } = recordingTimers();
    // 08:59:50 in Berlin; the digest fires at 09:00.
    const h = await harness([aTeam()], { start: "2026-06-10T06:59:50Z", timers, tickMs: 15_000 });
    h.daemon.start();
    await settled();
    expect(sleeps).toEqual([10_000]);
  });

  it("sleeps at most tickMs when the next fire is hours away", async () => {
    const { sleeps, timers } = recordingTimers();
    const h = await harness([aTeam()], { start: "2026-06-10T02:00:00Z", timers, tickMs: 15_000 });
    h.daemon.start();
    await settled();
    expect(sleeps).toEqual([15_000]);
  });

  it("plans a job again only once its next fire has come", async () => {
    const planned: string[] = [];
    const team = aTeam({ digests: [aDigest({ schedule: "0 9 * * *" })] });
    const h = await harness([team], { start: "2026-06-10T02:00:00Z" });
    const isSlotDelivered = h.ledger.isSlotDelivered.bind(h.ledger);
    h.ledger.isSlotDelivered = (key: string) => {
      planned.push(key);
      return isSlotDelivered(key);
    };
    await h.tickAt("2026-06-10T02:00:00Z");
    const afterFirst = planned.length;
    for (const minute of ["02:01", "03:00", "06:59"]) await h.tickAt(`2026-06-10T${minute}:00Z`);
    expect(planned.length).toBe(afterFirst);
    await h.tickAt("2026-06-10T07:00:01Z"); // 09:00:01 in Berlin: the fire is due
    expect(planned.length).toBeGreaterThan(afterFirst);
    expect(h.runs.map((r) => r.key)).toEqual(["checkout.daily.2026-06-09"]);
  });
});
