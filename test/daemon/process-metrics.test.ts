import { monitorEventLoopDelay } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { createDaemonMetrics, EVENT_LOOP_SAMPLING_MS } from "../../src/ops/metrics.js";

// Stock Node.js dashboards look for the standard process metric names; the event-loop gauges
// must read the loop's delay, not the interval it is sampled at.

/** The value of an unlabelled sample in Prometheus text, or undefined. */
function sample(text: string, name: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.split(" ")[1]);
}

/** Resolves once a histogram sampling at the daemon's rate has taken `count` samples. */
async function samplesTaken(count: number): Promise<void> {
  const witness = monitorEventLoopDelay({ resolution: EVENT_LOOP_SAMPLING_MS });
  witness.enable();
  while (witness.count < count) await new Promise((resolve) => setImmediate(resolve));
  witness.disable();
}

describe("the daemon's process metrics", () => {
  it("keep their standard names; the daemon's own are prefixed", async () => {
    const { registry } = createDaemonMetrics();
    const text = await registry.metrics();
    for (const name of [
      "process_cpu_seconds_total",
      "process_resident_memory_bytes",
      "nodejs_heap_size_used_bytes",
      "nodejs_eventloop_lag_p99_seconds",
    ]) {
      expect(sample(text, name), name).toBeTypeOf("number");
    }
    expect(text).not.toMatch(/^insights_reporter_(process|nodejs)_/m);
    expect(text).toMatch(/^# TYPE insights_reporter_slots_total counter$/m);
  });

  it("read about 0 s of event-loop delay at idle, not the 0.1 s sampling interval", async () => {
    const { registry } = createDaemonMetrics();
    await registry.metrics(); // starts a window
    await samplesTaken(5);
    const text = await registry.metrics();
    const p50 = sample(text, "nodejs_eventloop_lag_p50_seconds") ?? Number.NaN;
    const min = sample(text, "nodejs_eventloop_lag_min_seconds") ?? Number.NaN;
    // Idle but on a busy machine: a few milliseconds of delay, far from the interval.
    expect(min).toBeGreaterThanOrEqual(0);
    expect(p50).toBeLessThan((EVENT_LOOP_SAMPLING_MS / 1000) * 0.5);
  });
});
