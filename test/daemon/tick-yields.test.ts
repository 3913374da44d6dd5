import { describe, expect, it } from "vitest";
import { aDigest, aTeam, useHarness } from "./daemon-harness.js";

/**
 * A first tick with many jobs plans hours of catch-up for each; it must let the event loop run
 * (the ops server's /healthz, timers, deliveries in flight) while it does, instead of holding it
 * until every job is planned.
 */

const harness = useHarness();
// Enough jobs that planning them takes several of the scheduler's 20 ms stretches: each plan
// is cheap now (an every-minute job with 6 h of catch-up costs what a daily one does).
const JOBS = 96;

describe("a big first tick", () => {
  it("yields to the event loop between jobs", async () => {
    const digests = Array.from({ length: JOBS }, (_, i) =>
      aDigest({ name: `every-minute-${i}`, schedule: "* * * * *", catchUpMs: 6 * 3_600_000 }),
    );
    const h = await harness([aTeam({ digests })]);
    let ticking = true;
    let interleaved = 0;
    const beat = setInterval(() => {
      if (ticking) interleaved++;
    }, 1);
    try {
      const tick = h.tickOnly("2026-06-10T06:00:30Z");
      await tick;
      ticking = false;
    } finally {
      clearInterval(beat);
    }
    await h.daemon.idle();
    expect(h.runs).toHaveLength(JOBS);
    // Timers ran while the tick was planning: the loop was handed back, more than once.
    expect(interleaved).toBeGreaterThan(2);
  });
});

describe("a tick that launches slots", () => {
  it("lets a launched slot's I/O run before the tick plans the jobs after it", async () => {
    // Three daily digests due at once; each run's first I/O (a request, here one turn of the
    // event loop) notes how many runs had started by the time it was done.
    const digests = ["a", "b", "c"].map((name) => aDigest({ name }));
    const startedWhenIoDone: number[] = [];
    const h = await harness([aTeam({ digests })], {
      gate: async () => {
        await new Promise((resolve) => setImmediate(resolve));
        startedWhenIoDone.push(h.runs.length);
      },
    });
    await h.tickAt("2026-06-10T07:00:30Z");
    expect(h.runs).toHaveLength(3);
    // The first run's I/O was done before the third job was planned and its run started.
    expect(startedWhenIoDone[0]).toBeLessThan(3);
  });
});
