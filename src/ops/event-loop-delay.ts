import { monitorEventLoopDelay } from "node:perf_hooks";
import { Gauge, type Registry } from "prom-client";

// The event-loop delay gauges under their standard names (`nodejs_eventloop_lag_p99_seconds`
// …), without the sampling interval. Node's histogram records the whole time between two
// samples, so prom-client's own gauges read the interval plus the delay: 0.100 s for an idle
// loop sampled every 100 ms. These read the delay alone: about 0 at idle.

const STATISTICS = [
  ["min", "The minimum recorded event loop delay."],
  ["max", "The maximum recorded event loop delay."],
  ["mean", "The mean of the recorded event loop delays."],
  ["stddev", "The standard deviation of the recorded event loop delays."],
  ["p50", "The 50th percentile of the recorded event loop delays."],
  ["p90", "The 90th percentile of the recorded event loop delays."],
  ["p99", "The 99th percentile of the recorded event loop delays."],
] as const;

type Statistic = (typeof STATISTICS)[number][0];

/**
 * Replaces the event-loop delay gauges in `registry` by ones that sample every `samplingMs`
 * and subtract it. Each scrape reads the delays since the previous scrape.
 */
export function registerEventLoopDelay(registry: Registry, samplingMs: number): void {
  const histogram = monitorEventLoopDelay({ resolution: samplingMs });
  histogram.enable();
  const interval = samplingMs * 1e6;
  const read: Record<Statistic, () => number> = {
    min: () => histogram.min - interval,
    max: () => histogram.max - interval,
    mean: () => histogram.mean - interval,
    // A spread is not offset by the interval.
    stddev: () => histogram.stddev,
    p50: () => histogram.percentile(50) - interval,
    p90: () => histogram.percentile(90) - interval,
    p99: () => histogram.percentile(99) - interval,
  };
  // The registry collects gauges in the order they were made: the last starts the next window.
  const last = STATISTICS.length - 1;
  for (const [index, [statistic, help]] of STATISTICS.entries()) {
    const name = `nodejs_eventloop_lag_${statistic}_seconds`;
    registry.removeSingleMetric(name);
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        // Until its first sample the histogram is empty, and its min a huge number.
        const nanoseconds = histogram.count === 0 ? 0 : Math.max(0, read[statistic]());
        this.set(nanoseconds / 1e9);
        if (index === last) histogram.reset();
      },
    });
  }
}
