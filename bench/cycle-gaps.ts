import { subscribe } from "node:diagnostics_channel";
import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { parseConfigText } from "../src/config/load-config.js";
import { createApiClient } from "../src/create-deps.js";
import { collectInsights, createRequestCache } from "../src/insights/collect-insights.js";
import { digestSlot } from "../src/pipeline/digest/digest-slot.js";
import { measureBareClient } from "./bare-client-bench.js";
import { configYaml } from "./bench-support.js";
import {
  cycleTeams,
  daemonModules,
  LATENCY_MS,
  POOL,
  projectIds,
  slowEmulator,
} from "./cycle-bench.js";

// Where a cycle loses time against the bare client: the cycle of cycle-bench.ts ("reporter"),
// the reporter's fetching alone (its client and request cache, every team at once, no daemon
// and no digests: "fetch") and the bare client ("bare"), each cut into start (until the first
// request's headers are written), the requests (first written to last answered) and the tail
// (last answered to done). Within the requests: the slot time left idle (the limit minus the
// requests on the wire, integrated; `lostMs` is it over the limit), the gap from each answer to
// the next request written (`handoverMs`), and the time undici held a request before writing
// it. From undici's diagnostics channels. Not part of `npm run bench`.
//
//   GAPS_MODES=reporter,bare npx tsx bench/cycle-gaps.ts [concurrency] [runs] [--charts]
//
// With --charts every digest has charts (the reporter from the built package, `npm run build`
// first, drawing in its chart worker) and the bare client asks for the 28-day windows too.

interface Span {
  /** Handed to undici. */
  created: number;
  /** Its headers written to the socket (undici may defer the write to a later turn of the loop). */
  sent: number;
  done: number;
}

const numbers = process.argv.slice(2).filter((a) => /^\d+$/.test(a));
const concurrency = Number(numbers[0] ?? 4);
const runs = Number(numbers[1] ?? 1);
const charts = process.argv.includes("--charts");
/**
 * One request a distinct project (its current and prior day, or with --charts its chart window
 * holding both), and the project list's pages.
 */
const distinctProjects = new Set(
  cycleTeams(
    Array.from({ length: POOL }, (_, i) => String(i)),
    "",
  ).flatMap((t) => t.projects),
).size;
const uniqueRequests = distinctProjects + Math.ceil(POOL / 100);
let spans: Span[] = [];
const sentAt = new WeakMap<object, Span>();
subscribe("undici:request:create", (message) => {
  const span = { created: performance.now(), sent: Number.NaN, done: Number.NaN };
  spans.push(span);
  sentAt.set((message as { request: object }).request, span);
});
subscribe("undici:client:sendHeaders", (message) => {
  const span = sentAt.get((message as { request: object }).request);
  if (span) span.sent = performance.now();
});
const ended = (message: unknown) => {
  const span = sentAt.get((message as { request: object }).request);
  if (span) span.done = performance.now();
};
subscribe("undici:request:trailers", ended);
subscribe("undici:request:error", ended);

function analyse(label: string, started: number, finished: number, list: Span[]) {
  const sorted = [...list].sort((a, b) => a.sent - b.sent);
  const first = sorted[0]?.sent ?? started;
  const last = Math.max(...sorted.map((s) => s.done));
  const events = sorted.flatMap((s) => [
    { t: s.sent, d: 1 },
    { t: s.done, d: -1 },
  ]);
  events.sort((a, b) => a.t - b.t || a.d - b.d);
  let inFlight = 0;
  let since = first;
  let idleSlotMs = 0;
  // Idle slot time per second of the requests, to see where it goes (start, middle, last wave).
  const perSecond: number[] = [];
  for (const { t, d } of events) {
    const idle = Math.max(0, concurrency - inFlight) * (t - since);
    idleSlotMs += idle;
    const second = Math.floor((since - first) / 1000);
    perSecond[second] = (perSecond[second] ?? 0) + idle;
    inFlight += d;
    since = t;
  }
  // From each answer to the first request sent after it (the slot's hand-over).
  const sends = sorted.map((s) => s.sent);
  const handovers: number[] = [];
  for (const s of sorted) {
    const next = sends.find((t) => t >= s.done);
    if (next !== undefined) handovers.push(next - s.done);
  }
  const latency = sorted.map((s) => s.done - s.sent);
  const createdToSent = sorted.map((s) => s.sent - s.created);
  return {
    label,
    totalMs: Math.round(finished - started),
    startMs: Math.round(first - started),
    requestsMs: Math.round(last - first),
    tailMs: Math.round(finished - last),
    requests: sorted.length,
    idleSlotMs: Math.round(idleSlotMs),
    lostMs: Math.round(idleSlotMs / concurrency),
    idleSlotMsPerSecond: Array.from(perSecond, (ms) => Math.round(ms ?? 0)).join(" "),
    handoverMs: quantiles(handovers),
    createdToSentMs: quantiles(createdToSent),
    sentToDoneMs: quantiles(latency),
    meanSentToDoneMs: +(latency.reduce((a, b) => a + b, 0) / latency.length).toFixed(1),
  };
}

async function reporterCycle(today: string) {
  const {
    parseConfigText: parseBuilt,
    startDaemonService,
    silentLogger,
  } = await daemonModules(charts);
  const emulator = await slowEmulator(today);
  const dir = await mkdtemp(join(tmpdir(), "cycle-gaps-"));
  try {
    const teams = cycleTeams(await projectIds(emulator.url), "0 9 * * *");
    const config = parseBuilt(configYaml(teams, concurrency, { charts }), "bench.yaml", {
      env: { INSIGHTS_API_URL: emulator.url, INSIGHTS_API_KEY: "demo-key" },
      requireCredentials: false,
    });
    const fireAt = Date.parse(`${today}T09:00:00.500Z`);
    const startedReal = Date.now();
    spans = [];
    const loop = monitorEventLoopDelay({ resolution: 5 });
    loop.enable();
    const cpu = process.cpuUsage();
    const startedUs = process.hrtime.bigint() / 1000n;
    const started = performance.now();
    const service = await startDaemonService(config, {
      logger: silentLogger(),
      outbox: dir,
      now: () => new Date(fireAt + (Date.now() - startedReal)),
    });
    const serviceUp = performance.now();
    await new Promise((resolve) => setImmediate(resolve));
    await service.daemon.idle();
    const finished = performance.now();
    const used = process.cpuUsage(cpu);
    loop.disable();
    const list = spans;
    await service.stop(5_000);
    return {
      ...analyse("reporter", started, finished, list),
      serviceStartMs: Math.round(serviceUp - started),
      // For lining up a --cpu-prof profile (its clock is the same monotonic microseconds).
      startedUs: String(startedUs),
      cpuMs: Math.round((used.user + used.system) / 1000),
      boundMs: Math.ceil(uniqueRequests / concurrency) * LATENCY_MS,
      loopDelayMs: `p50 ${(loop.percentile(50) / 1e6).toFixed(1)} p99 ${(loop.percentile(99) / 1e6).toFixed(1)} max ${(loop.max / 1e6).toFixed(1)}`,
    };
  } finally {
    await emulator.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

async function bareClient(today: string) {
  // The bare client measures from its first request's start; its emulator and project list
  // are made before, so the spans are taken from its last POOL/100 + unique requests.
  spans = [];
  const cpu = process.cpuUsage();
  const ms = await measureBareClient(concurrency, today, { charts });
  const used = process.cpuUsage(cpu);
  const list = spans.slice(-uniqueRequests);
  const first = Math.min(...list.map((s) => s.created));
  // CPU of the whole call: the project list fetched before the timed part included.
  return {
    ...analyse("bare", first, first + ms, list),
    cpuMs: Math.round((used.user + used.system) / 1000),
  };
}

/** The reporter's fetching alone: its client and request cache, every team at once, no daemon. */
async function fetchOnly(today: string) {
  const emulator = await slowEmulator(today);
  try {
    const teams = cycleTeams(await projectIds(emulator.url), "0 9 * * *");
    const config = parseConfigText(configYaml(teams, concurrency), "bench.yaml", {
      env: { INSIGHTS_API_URL: emulator.url, INSIGHTS_API_KEY: "demo-key" },
      requireCredentials: false,
    });
    const fireAt = new Date(`${today}T09:00:00.500Z`);
    spans = [];
    const cpu = process.cpuUsage();
    const started = performance.now();
    const api = createApiClient(config);
    const cache = createRequestCache();
    await Promise.all(
      config.teams.map((team) => {
        const digest = team.digests[0];
        if (!digest) throw new Error("no digest");
        return collectInsights(api, team, digestSlot({ team, digest, fireAt }).periods, cache);
      }),
    );
    const finished = performance.now();
    const used = process.cpuUsage(cpu);
    await api.close();
    return {
      ...analyse("fetch-only", started, finished, spans),
      cpuMs: Math.round((used.user + used.system) / 1000),
    };
  } finally {
    await emulator.stop();
  }
}

const modes = (process.env.GAPS_MODES ?? "reporter,bare").split(",");
const today = new Date().toISOString().slice(0, 10);
for (let i = 0; i < runs; i++) {
  const bound = Math.ceil(uniqueRequests / concurrency) * LATENCY_MS;
  for (const mode of modes) {
    const figures =
      mode === "reporter"
        ? await reporterCycle(today)
        : mode === "fetch"
          ? await fetchOnly(today)
          : await bareClient(today);
    console.log(
      JSON.stringify({
        ...figures,
        ratio: +(figures.totalMs / bound).toFixed(3),
        load: loadavg()[0]?.toFixed(1),
      }),
    );
  }
}

function quantiles(values: readonly number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => (sorted[Math.floor(q * (sorted.length - 1))] ?? 0).toFixed(1);
  const sum = sorted.reduce((a, b) => a + b, 0);
  return `p10 ${at(0.1)} p50 ${at(0.5)} p99 ${at(0.99)} max ${at(1)} sum ${sum.toFixed(0)}`;
}
