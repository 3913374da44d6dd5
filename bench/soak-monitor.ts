import { setTimeout as delay } from "node:timers/promises";
import { cpuSeconds, rssBytes } from "./proc-stats.js";
import { type Scrape, scrapeMetrics } from "./scrape-metrics.js";

// Watches the daemon from outside while the soak runs: its resident memory from /proc every
// few seconds, /healthz every second (how long it takes to answer is the event loop's delay as
// a caller feels it), and /metrics and /readyz once a minute. The daemon's event-loop gauges cover the time
// since the previous scrape (prom-client resets the histogram on each), so one scrape a
// minute gives each minute its own p99; the daemon's gauges already leave the sampling
// interval out.

const RSS_EVERY_MS = 5_000;

export interface RssSample {
  /** Seconds since the daemon started. */
  atS: number;
  bytes: number;
}

/** One answer of the ops server: status 0 when the request failed. */
export interface Probe {
  atS: number;
  status: number;
  ms: number;
}

/** One minute of the daemon as its /metrics told it at the minute's end. */
export interface MinuteFigures {
  /** 1 for the first minute after start. */
  minute: number;
  /** Event-loop delay over the minute (sampling interval taken off), seconds. */
  loopP99S: number;
  loopMaxS: number;
  heapUsedBytes: number;
  /** V8 heap committed, and memory outside it that V8 knows of (Buffers, ArrayBuffers). */
  heapTotalBytes: number;
  externalBytes: number;
  rssBytes: number;
  /** Open handles (sockets, timers, servers): a leak of connections shows here. */
  handles: number;
  /** Slots posted by the minute's end (all destinations). */
  posted: number;
  /** /readyz's status at the minute's end. */
  readyStatus: number;
}

export interface MonitorOptions {
  pid: number;
  opsUrl: string;
  /** When the daemon said it started (epoch ms). */
  startedAt: number;
  /** Called every second, to note arrivals as they happen. */
  everySecond(): void;
  /** Called at each minute's end (1, 2, …). */
  everyMinute(minute: number): void;
  /** Slots posted so far, for the per-minute table. */
  posted(): number;
  /** Whether the daemon has exited. */
  exited(): boolean;
}

export interface Monitor {
  rss: RssSample[];
  health: Probe[];
  minutes: MinuteFigures[];
  /** CPU seconds the daemon used since the monitor started. */
  cpuS(): Promise<number>;
  /** Watches until `until` (epoch ms), until `done()` holds, or until the daemon exits. */
  watch(until: number, done?: () => boolean): Promise<void>;
  /** The daemon's /metrics now. */
  scrape(): Promise<Scrape>;
}

/** Starts watching: a first scrape now, so the first minute's event-loop figures are its own. */
export async function startMonitor(options: MonitorOptions): Promise<Monitor> {
  const metricsUrl = `${options.opsUrl}/metrics`;
  const rss: RssSample[] = [];
  const health: Probe[] = [];
  const minutes: MinuteFigures[] = [];
  const cpuAtStart = await cpuSeconds(options.pid);
  await scrapeMetrics(metricsUrl);
  let nextRssAt = Date.now();
  const elapsedS = () => (Date.now() - options.startedAt) / 1000;

  async function minuteEnded(minute: number): Promise<void> {
    const scrape = await scrapeMetrics(metricsUrl);
    // Node's process metrics keep their standard names, without our prefix.
    const gauge = (name: string) => scrape.get(name) ?? Number.NaN;
    minutes.push({
      minute,
      loopP99S: gauge("nodejs_eventloop_lag_p99_seconds"),
      loopMaxS: gauge("nodejs_eventloop_lag_max_seconds"),
      heapUsedBytes: gauge("nodejs_heap_size_used_bytes"),
      heapTotalBytes: gauge("nodejs_heap_size_total_bytes"),
      externalBytes: gauge("nodejs_external_memory_bytes"),
      rssBytes: gauge("process_resident_memory_bytes"),
      handles: gauge("nodejs_active_handles_total"),
      posted: options.posted(),
      readyStatus: (await probe(`${options.opsUrl}/readyz`, elapsedS())).status,
    });
    options.everyMinute(minute);
  }

  return {
    rss,
    health,
    minutes,
    cpuS: async () => (await cpuSeconds(options.pid)) - cpuAtStart,
    scrape: () => scrapeMetrics(metricsUrl),
    async watch(until, done = () => false) {
      while (Date.now() < until && !done() && !options.exited()) {
        await delay(1_000);
        options.everySecond();
        try {
          health.push(await probe(`${options.opsUrl}/healthz`, elapsedS()));
          if (Date.now() >= nextRssAt) {
            rss.push({ atS: elapsedS(), bytes: await rssBytes(options.pid) });
            nextRssAt += RSS_EVERY_MS;
          }
          const minute = Math.floor(elapsedS() / 60);
          if (minute > minutes.length) await minuteEnded(minutes.length + 1);
        } catch (error) {
          // A daemon that died is the soak's finding, not its crash: give its exit time to land.
          await delay(500);
          if (!options.exited()) throw error;
        }
      }
    },
  };
}

async function probe(url: string, atS: number): Promise<Probe> {
  const started = performance.now();
  try {
    const res = await fetch(url);
    await res.arrayBuffer();
    return { atS, status: res.status, ms: performance.now() - started };
  } catch {
    return { atS, status: 0, ms: performance.now() - started };
  }
}
