import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Agent, request } from "undici";
import { configYaml, startEmulatorProcess, type TeamSpec } from "./bench-support.js";

// One daemon cycle with every digest due at once: 50 teams × 12 projects against the emulator
// answering each request after 50 ms. The daemon runs in this process (its CPU is ours to
// measure); the emulator is a process of its own. The bound no client can beat is
// ceil(unique requests / concurrency) × latency; the naive script is measured in the same run.

export interface CycleFigures {
  concurrency: number;
  ms: number;
  boundMs: number;
  requests: number;
  unique: number;
  cpuMs: number;
  /** Of `ms`, how long the daemon's event loop was busy (the chart worker's drawing is not). */
  loopBusyMs: number;
  digests: number;
  /** When digests were written, from the cycle's start: the first, the median and the last. */
  digestsDoneMs: { first: number; median: number; last: number };
}

const TEAMS = 50;
const PER_TEAM = 12;
export const POOL = 520;
export const LATENCY_MS = 50;

/**
 * The insights requests of a cycle, each once: the prior and current day of every distinct
 * project in one request (adjacent periods are asked as one range), or with `charts` its 28-day
 * chart window, from which both days are cut.
 */
export function uniqueInsightsPaths(
  teams: readonly TeamSpec[],
  today: string,
  options: { charts?: boolean } = {},
): string[] {
  const day = (offset: number) =>
    new Date(Date.parse(`${today}T00:00:00Z`) - offset * 86_400_000).toISOString().slice(0, 10);
  const spans = options.charts ? [[day(28), day(1)]] : [[day(2), day(1)]];
  return [...new Set(teams.flatMap((t) => t.projects))].flatMap((id) =>
    spans.map(
      ([start, end]) =>
        `/projects/${id}/insights?start_date=${start}&end_date=${end}&timezone=Etc/UTC`,
    ),
  );
}

/** Team i takes 12 consecutive projects from position 10·i: neighbours share two. */
export function cycleTeams(ids: readonly string[], schedule: string): TeamSpec[] {
  return Array.from({ length: TEAMS }, (_, i) => ({
    name: `team-${i}`,
    projects: Array.from({ length: PER_TEAM }, (_, j) => ids[(i * 10 + j) % ids.length] ?? ""),
    schedules: [schedule],
    timezone: "Etc/UTC",
  }));
}

/** The emulator with the pool of projects, answering each request after LATENCY_MS. */
export function slowEmulator(today: string) {
  return startEmulatorProcess([
    "--projects",
    String(POOL),
    "--latency-ms",
    String(LATENCY_MS),
    "--today",
    today,
  ]);
}

/** The emulator's project ids, from its list operation. */
export async function projectIds(url: string): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; ids.length < POOL; page++) {
    const res = await request(`${url}/projects?page_number=${page}&page_size=100`, {
      headers: { "x-api-key": "demo-key" },
    });
    const body = (await res.body.json()) as { projects: { id: string }[] };
    if (body.projects.length === 0) break;
    ids.push(...body.projects.map((p) => p.id));
  }
  return ids.slice(0, POOL);
}

/**
 * The daemon's modules: from the sources, or with charts from the built package (dist/, `npm
 * run build` first), which draws them in its chart worker as the installed daemon does. V8 is
 * set as `start` sets it before the daemon loads (`tuneForDaemon`), for the rest of this process.
 */
export async function daemonModules(built: boolean) {
  const from = (path: string) => `../${built ? "dist" : "src"}/${path}`;
  const tuning: typeof import("../src/compiler-tuning.js") = await import(
    from("compiler-tuning.js")
  );
  tuning.tuneForDaemon();
  const config: typeof import("../src/config/load-config.js") = await import(
    from("config/load-config.js")
  );
  const service: typeof import("../src/daemon/daemon-service.js") = await import(
    from("daemon/daemon-service.js")
  );
  const logger: typeof import("../src/logger.js") = await import(from("logger.js"));
  return { ...config, ...service, ...logger };
}

/** Runs one full cycle through the real daemon service at a fixed "now" just after 09:00 UTC. */
export async function measureCycle(
  concurrency: number,
  today: string,
  options: { charts?: boolean } = {},
): Promise<CycleFigures> {
  const emulator = await slowEmulator(today);
  const dir = await mkdtemp(join(tmpdir(), "cycle-bench-"));
  try {
    const teams = cycleTeams(await projectIds(emulator.url), "0 9 * * *");
    return await runCycle(concurrency, today, teams, emulator.url, dir, null, options);
  } finally {
    await emulator.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Two cycles in one process, one emulator and one ledger: the first on the day before `today`,
 * the second on `today`. With `dayStore` as a deployed daemon (`start`) runs them: its ledger at
 * `state.path`, so the day store opens in it, empty for the first (cold) and filled by it for
 * the second (warm). Without, the same two cycles with no day store: what the second owes to a
 * process already warm, not to the store.
 */
export async function measureTwoCycles(
  concurrency: number,
  today: string,
  options: { charts?: boolean; dayStore?: boolean } = {},
): Promise<{ cold: CycleFigures; warm: CycleFigures }> {
  const emulator = await slowEmulator(today);
  const dir = await mkdtemp(join(tmpdir(), "cycle-bench-"));
  try {
    const teams = cycleTeams(await projectIds(emulator.url), "0 9 * * *");
    // The outbox's ledger is where the daemon keeps its slots; naming it as `state.path`
    // makes it the config's store too, so the day store opens in the same file, as with start.
    const state = options.dayStore ? join(dir, "outbox-ledger.sqlite") : null;
    const yesterday = new Date(Date.parse(`${today}T00:00:00Z`) - 86_400_000)
      .toISOString()
      .slice(0, 10);
    const cold = await runCycle(concurrency, yesterday, teams, emulator.url, dir, state, options);
    const warm = await runCycle(concurrency, today, teams, emulator.url, dir, state, options);
    return { cold, warm };
  } finally {
    await emulator.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/** One cycle with its fire at `day` 09:00 UTC, posts into `dir`; `state`: the ledger's path. */
async function runCycle(
  concurrency: number,
  day: string,
  teams: readonly TeamSpec[],
  url: string,
  dir: string,
  state: string | null,
  options: { charts?: boolean },
): Promise<CycleFigures> {
  const { parseConfigText, startDaemonService, silentLogger } = await daemonModules(
    options.charts === true,
  );
  const yaml = configYaml(teams, concurrency, options);
  const config = parseConfigText(
    state ? yaml.replace("  path: ./data/bench.sqlite", `  path: ${JSON.stringify(state)}`) : yaml,
    "bench.yaml",
    {
      env: { INSIGHTS_API_URL: url, INSIGHTS_API_KEY: "demo-key" },
      requireCredentials: false,
    },
  );
  const before = new Set(await readdir(dir));
  const fireAt = Date.parse(`${day}T09:00:00.500Z`);
  const startedReal = Date.now();
  const cpuBefore = process.cpuUsage();
  const loopBefore = performance.eventLoopUtilization();
  const started = performance.now();
  performance.mark("cycle:start");
  const service = await startDaemonService(config, {
    logger: silentLogger(),
    outbox: dir,
    now: () => new Date(fireAt + (Date.now() - startedReal)),
  });
  // The first tick starts every slot; wait until none is running.
  await new Promise((resolve) => setImmediate(resolve));
  await service.daemon.idle();
  const ms = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const loop = performance.eventLoopUtilization(loopBefore);
  performance.mark("cycle:end");
  const metrics = await (await fetch(`${service.opsUrl}/metrics`)).text();
  await service.stop(5_000);
  const requests = sumCounter(metrics, "insights_reporter_api_requests_total");
  // Current and prior of each distinct project in one range (with charts, its 28-day chart
  // window, which holds both), and the project list (names), once per cycle.
  const distinct = new Set(teams.flatMap((t) => t.projects)).size;
  const unique = distinct + Math.ceil(POOL / 100);
  const posts = (await readdir(dir)).filter((f) => f.endsWith(".slack.json") && !before.has(f));
  const doneMs = (await Promise.all(posts.map((f) => stat(join(dir, f)))))
    .map((s) => s.mtimeMs - startedReal)
    .sort((a, b) => a - b);
  const digests = posts.length;
  return {
    concurrency,
    ms,
    boundMs: Math.ceil(unique / concurrency) * LATENCY_MS,
    requests,
    unique,
    cpuMs: (cpu.user + cpu.system) / 1000,
    loopBusyMs: loop.active,
    digests,
    digestsDoneMs: {
      first: Math.round(doneMs[0] ?? 0),
      median: Math.round(doneMs[Math.floor(doneMs.length / 2)] ?? 0),
      last: Math.round(doneMs.at(-1) ?? 0),
    },
  };
}

/**
 * What a team without this tool writes: every request in turn, each on a new connection, no
 * sharing of a project two teams both ask for. Only the fetching, none of the rendering.
 */
export async function measureNaive(today: string): Promise<number> {
  const emulator = await slowEmulator(today);
  try {
    const teams = cycleTeams(await projectIds(emulator.url), "0 9 * * *");
    const day = (offset: number) =>
      new Date(Date.parse(`${today}T00:00:00Z`) - offset * 86_400_000).toISOString().slice(0, 10);
    const started = performance.now();
    for (const team of teams) {
      for (const id of team.projects) {
        for (const date of [day(1), day(2)]) {
          const agent = new Agent({ pipelining: 0 });
          const res = await request(
            `${emulator.url}/projects/${id}/insights?start_date=${date}&end_date=${date}&timezone=Etc/UTC`,
            { headers: { "x-api-key": "demo-key" }, dispatcher: agent },
          );
          await res.body.json();
          await agent.close();
        }
      }
    }
    return performance.now() - started;
  } finally {
    await emulator.stop();
  }
}

export function sumCounter(text: string, name: string): number {
  let total = 0;
  for (const line of text.split("\n")) {
    if (line.startsWith(`${name}{`) || line.startsWith(`${name} `)) {
      total += Number(line.slice(line.lastIndexOf(" ") + 1));
    }
  }
  return total;
}

// `npx tsx bench/cycle-bench.ts [concurrency] [--charts] [--day-store | --two-days]`: one
// cycle, its figures as JSON (`ratio` is the time over the latency bound). With --charts every
// digest has `charts: {}`, run by the built package (`npm run build` first). With --day-store
// the daemon keeps its ledger at `state.path`, as `start` does, so its day store opens: two
// cycles, one JSON line each, the first on an empty store ("cold"), the next day's on the store
// it filled ("warm"). --two-days: the same two cycles without a day store ("none", "none-2").
if (import.meta.url === `file://${process.argv[1]}`) {
  const concurrency = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 4);
  const today = new Date().toISOString().slice(0, 10);
  const charts = process.argv.includes("--charts");
  const dayStore = process.argv.includes("--day-store");
  const print = (store: string, figures: CycleFigures) =>
    console.log(
      JSON.stringify({ store, ...figures, ratio: +(figures.ms / figures.boundMs).toFixed(3) }),
    );
  if (dayStore || process.argv.includes("--two-days")) {
    const { cold, warm } = await measureTwoCycles(concurrency, today, { charts, dayStore });
    print(dayStore ? "cold" : "none", cold);
    print(dayStore ? "warm" : "none-2", warm);
  } else {
    print("none", await measureCycle(concurrency, today, { charts }));
  }
}
