import { subscribe } from "node:diagnostics_channel";
import { readdirSync, readFileSync } from "node:fs";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { measureCycle } from "./cycle-bench.js";

// Where a cycle waits: one run of the cycle benchmark with the requests in flight over time
// (from undici's diagnostics channels), each request's time to its response headers, the event
// loop's delay, and CPU per 100 ms of the reporter and of the emulator (this process's child).
// Not part of `npm run bench`; a tool for finding where the cycle loses time.
//
//   npx tsx bench/cycle-trace.ts [concurrency]      one line of figures (JSON)
//   TRACE_BUCKETS=1 npx tsx bench/cycle-trace.ts 16   and a line per 100 ms

const BUCKET_MS = 100;

interface Bucket {
  inFlightMs: number;
  cpuMs: number;
  emulatorMs: number;
}

const concurrency = Number(process.argv[2] ?? 16);
const changes: { t: number; delta: 1 | -1 }[] = [];
const sentAt = new WeakMap<object, number>();
const toHeaders: number[] = [];
subscribe("undici:request:create", (message) => {
  changes.push({ t: performance.now(), delta: 1 });
  sentAt.set((message as { request: object }).request, performance.now());
});
subscribe("undici:request:headers", (message) => {
  const sent = sentAt.get((message as { request: object }).request);
  if (sent !== undefined) toHeaders.push(performance.now() - sent);
});
const ended = () => changes.push({ t: performance.now(), delta: -1 });
subscribe("undici:request:trailers", ended);
subscribe("undici:request:error", ended);

const t0 = performance.now();
const buckets = new Map<number, Bucket>();
const bucket = (t: number): Bucket => {
  const index = Math.floor((t - t0) / BUCKET_MS);
  let b = buckets.get(index);
  if (!b) {
    b = { inFlightMs: 0, cpuMs: 0, emulatorMs: 0 };
    buckets.set(index, b);
  }
  return b;
};
let lastCpu = process.cpuUsage();
let lastChildTicks = childTicks();
const sampler = setInterval(() => {
  const cpu = process.cpuUsage(lastCpu);
  lastCpu = process.cpuUsage();
  const ticks = childTicks();
  const b = bucket(performance.now() - BUCKET_MS);
  b.cpuMs += (cpu.user + cpu.system) / 1000;
  b.emulatorMs += Math.max(0, ticks - lastChildTicks) * 10;
  lastChildTicks = Math.max(ticks, lastChildTicks);
}, BUCKET_MS);
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();

const figures = await measureCycle(concurrency, new Date().toISOString().slice(0, 10));
clearInterval(sampler);
loopDelay.disable();

// Requests in flight, integrated over each bucket.
let inFlight = 0;
let since = changes[0]?.t ?? t0;
for (const { t, delta } of changes.sort((a, b) => a.t - b.t)) {
  for (let start = since; start < t; ) {
    const end = Math.min(t, t0 + (Math.floor((start - t0) / BUCKET_MS) + 1) * BUCKET_MS);
    bucket(start).inFlightMs += inFlight * (end - start);
    start = end > start ? end : t;
  }
  inFlight += delta;
  since = t;
}

console.log(
  JSON.stringify({
    ...figures,
    ratio: +(figures.ms / figures.boundMs).toFixed(2),
    sentToHeadersMs: quantiles(toHeaders),
    loopDelayP99Ms: +(loopDelay.percentile(99) / 1e6).toFixed(1),
    emulatorCpuMs: [...buckets.values()].reduce((sum, b) => sum + b.emulatorMs, 0),
  }),
);
if (process.env.TRACE_BUCKETS) {
  for (const [index, b] of [...buckets].sort((x, y) => x[0] - y[0])) {
    const at = String(index * BUCKET_MS).padStart(6);
    const mean = (b.inFlightMs / BUCKET_MS).toFixed(1).padStart(5);
    console.log(
      `${at} ms  in flight ${mean}  reporter CPU ${b.cpuMs.toFixed(0).padStart(4)} ms  emulator CPU ${b.emulatorMs.toFixed(0).padStart(4)} ms`,
    );
  }
}

/** CPU ticks (1/100 s) of this process's children: the emulator the benchmark starts. */
function childTicks(): number {
  let total = 0;
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[1]) === process.pid) total += Number(fields[11]) + Number(fields[12]);
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return total;
}

function quantiles(values: readonly number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => (sorted[Math.floor(q * (sorted.length - 1))] ?? 0).toFixed(0);
  return `p10 ${at(0.1)} p50 ${at(0.5)} p90 ${at(0.9)} max ${at(1)}`;
}
