import { writeFile } from "node:fs/promises";
import { Session } from "node:inspector/promises";
import { performance } from "node:perf_hooks";
import { measureCycle, measureTwoCycles } from "./cycle-bench.js";

// Where a cycle's CPU goes: one run of the cycle benchmark under V8's sampling profiler (the
// daemon runs in this process; the emulator is a process of its own and is not sampled). Not
// part of `npm run bench`: the profiler roughly doubles the process's CPU, so read its shares.
//
//   npx tsx bench/cycle-profile.ts [concurrency] [--day-store [--next-day]] [--out file.cpuprofile]
//
// With `--day-store` the daemon runs as deployed, with its day store, for two cycles; the first
// (cold) is read, or with `--next-day` the second.
//
// Prints the top functions by self time, and each sample charged to the first frame from the
// leaf up that is ours (by folder under src/) or a package's (by name), node's own otherwise.

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  startTime: number;
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const concurrency = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 4);
const outIndex = process.argv.indexOf("--out");
const out = outIndex > 0 ? process.argv[outIndex + 1] : undefined;

const session = new Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.setSamplingInterval", { interval: 200 });
await session.post("Profiler.start");
// The profile's clock is the monotonic one process.hrtime reads; performance.now() is offset.
const hrMinusPerfUs = Number(process.hrtime.bigint() / 1000n) - performance.now() * 1000;
const today = new Date().toISOString().slice(0, 10);
const dayStore = process.argv.includes("--day-store");
const nextDay = dayStore && process.argv.includes("--next-day");
const figures = dayStore
  ? (await measureTwoCycles(concurrency, today, { dayStore }))[nextDay ? "warm" : "cold"]
  : await measureCycle(concurrency, today);
const { profile } = (await session.post("Profiler.stop")) as { profile: Profile };
session.disconnect();
if (out) await writeFile(out, JSON.stringify(profile));

/** A frame's owner: `src/<folder>`, a package's name, or node's (program, GC, idle, internals). */
function owner(url: string, functionName: string): string | null {
  const src = /\/src\/([^/]+)(\/|\.ts|\.js)/.exec(url);
  if (src && !url.includes("node_modules")) return `src/${src[1]}`;
  const pkg = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1] ?? null;
  if (functionName === "(garbage collector)") return "(gc)";
  if (functionName === "(idle)") return "(idle)";
  if (functionName === "(program)") return "(program)";
  return null;
}

// Only the samples between the bench's marks: what its `cpuMs` counts, not loading or stopping.
const mark = (name: string) =>
  (performance.getEntriesByName(name)[nextDay ? 1 : 0]?.startTime ?? Number.NaN) * 1000 +
  hrMinusPerfUs;
const [from, to] = [mark("cycle:start"), mark("cycle:end")];
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const self = new Map<string, number>();
const area = new Map<string, number>();
const ours = new Map<string, number>();
let at = profile.startTime;
profile.samples.forEach((id, i) => {
  const delta = profile.timeDeltas[i] ?? 0;
  at += delta;
  if (!(at >= from && at <= to)) return;
  // On a shared machine the sampler's thread is sometimes not run for tens of milliseconds, and
  // the gap would be charged to whichever function it lands on: count at most 1 ms a sample.
  const us = Math.min(delta, 1000);
  const leaf = byId.get(id);
  if (!leaf) return;
  const { functionName, url, lineNumber } = leaf.callFrame;
  const name = `${functionName || "(anonymous)"} ${url.replace(/^.*\/(src|node_modules)\//, "$1/")}:${lineNumber + 1}`;
  self.set(name, (self.get(name) ?? 0) + us);
  let first: string | null = null;
  let firstOurs: string | null = null;
  for (let n: ProfileNode | undefined = leaf; n; n = byId.get(parent.get(n.id) ?? -1)) {
    const o = owner(n.callFrame.url, n.callFrame.functionName);
    first ??= o;
    if (o?.startsWith("src/")) {
      firstOurs = o;
      break;
    }
  }
  const a = first ?? "(node)";
  area.set(a, (area.get(a) ?? 0) + us);
  const b = firstOurs ?? a;
  ours.set(b, (ours.get(b) ?? 0) + us);
});

const ms = (us: number) => `${(us / 1000).toFixed(1)} ms`;
const top = (m: Map<string, number>, n: number) => [...m].sort((x, y) => y[1] - x[1]).slice(0, n);
console.log(
  JSON.stringify({
    ...figures,
    windowUs: [Math.round(from - profile.startTime), Math.round(to - profile.startTime)],
  }),
);
console.log("\n# self time");
for (const [k, v] of top(self, 40)) console.log(`${ms(v).padStart(10)}  ${k}`);
console.log("\n# by the first frame from the leaf up that is ours or a package's");
for (const [k, v] of top(area, 40)) console.log(`${ms(v).padStart(10)}  ${k}`);
console.log("\n# by the first frame of ours from the leaf up (packages charged to their caller)");
for (const [k, v] of top(ours, 40)) console.log(`${ms(v).padStart(10)}  ${k}`);
