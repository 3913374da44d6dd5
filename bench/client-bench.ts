import { performance } from "node:perf_hooks";
import { Pool } from "undici";
import { sendBare } from "./bare-client-bench.js";
import { median, startEmulatorProcess } from "./bench-support.js";
import { cycleTeams, LATENCY_MS, POOL, projectIds } from "./cycle-bench.js";

// The insights client alone: the cycle's 508 unique requests (the project list, then one
// 2-day range per project) through `createInsightsClient` at a concurrency, against the
// emulator in a process of its own answering each after 50 ms, or through a bare undici pool
// (`--bare`: `request`, then `JSON.parse`, nothing else). Prints the process's CPU (user +
// system) per request for each round: the first cold, as in a cycle, the later ones warm.
// `--src DIR` loads the client from another checkout's src/, to pair two versions;
// `--rounds N` (default 3); `--latency-ms N` (default the cycle's 50).

interface Round {
  cpuMs: number;
  wallMs: number;
  requests: number;
}

async function clientRounds(
  src: string,
  url: string,
  concurrency: number,
  rounds: number,
  day: (offset: number) => string,
): Promise<Round[]> {
  const { createInsightsClient }: typeof import("../src/insights/create-insights-client.js") =
    await import(`${src}/insights/create-insights-client.js`);
  const { Secret }: typeof import("../src/secret.js") = await import(`${src}/secret.js`);
  const out: Round[] = [];
  for (let r = 0; r < rounds; r++) {
    const client = createInsightsClient({ baseUrl: url, key: new Secret("demo-key"), concurrency });
    const cpu = process.cpuUsage();
    const started = performance.now();
    const projects = await client.listProjects();
    const ids = [
      ...new Set(
        cycleTeams(
          projects.map((p) => p.id),
          "0 9 * * *",
        ).flatMap((t) => t.projects),
      ),
    ];
    await Promise.all(
      ids.map((id) =>
        client.getInsights(id, {
          startDate: day(2),
          endDate: day(1),
          timezone: "Etc/UTC",
          branch: null,
          author: null,
          tags: [],
        }),
      ),
    );
    const used = process.cpuUsage(cpu);
    out.push({
      cpuMs: (used.user + used.system) / 1000,
      wallMs: performance.now() - started,
      requests: ids.length + Math.ceil(POOL / 100),
    });
    await client.close();
  }
  return out;
}

async function bareRounds(
  url: string,
  concurrency: number,
  rounds: number,
  day: (offset: number) => string,
): Promise<Round[]> {
  const base = new URL(url);
  const ids = [
    ...new Set(cycleTeams(await projectIds(url), "0 9 * * *").flatMap((t) => t.projects)),
  ];
  const pages = Array.from(
    { length: Math.ceil(POOL / 100) },
    (_, i) => `/projects?page_number=${i + 1}&page_size=100`,
  );
  const paths = [
    ...pages,
    ...ids.map(
      (id) => `/projects/${id}/insights?start_date=${day(2)}&end_date=${day(1)}&timezone=Etc%2FUTC`,
    ),
  ];
  const out: Round[] = [];
  for (let r = 0; r < rounds; r++) {
    const pool = new Pool(base.origin);
    const cpu = process.cpuUsage();
    const started = performance.now();
    await sendBare(pool, base.pathname, paths, concurrency);
    const used = process.cpuUsage(cpu);
    out.push({
      cpuMs: (used.user + used.system) / 1000,
      wallMs: performance.now() - started,
      requests: paths.length,
    });
    await pool.close();
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const concurrency = Number(process.argv[2] ?? 4);
  const srcAt = process.argv.indexOf("--src");
  const src = srcAt > 0 ? (process.argv[srcAt + 1] ?? "../src") : "../src";
  const roundsAt = process.argv.indexOf("--rounds");
  const rounds = roundsAt > 0 ? Number(process.argv[roundsAt + 1]) : 3;
  const today = new Date().toISOString().slice(0, 10);
  const day = (offset: number) =>
    new Date(Date.parse(`${today}T00:00:00Z`) - offset * 86_400_000).toISOString().slice(0, 10);
  const latencyAt = process.argv.indexOf("--latency-ms");
  const latency = latencyAt > 0 ? Number(process.argv[latencyAt + 1]) : LATENCY_MS;
  const emulator = await startEmulatorProcess([
    "--projects",
    String(POOL),
    "--latency-ms",
    String(latency),
    "--today",
    today,
  ]);
  try {
    const figures = process.argv.includes("--bare")
      ? await bareRounds(emulator.url, concurrency, rounds, day)
      : await clientRounds(src, emulator.url, concurrency, rounds, day);
    console.log(
      JSON.stringify({
        client: process.argv.includes("--bare") ? "bare" : src,
        concurrency,
        latencyMs: latency,
        coldMsPerRequest: +((figures[0]?.cpuMs ?? 0) / (figures[0]?.requests ?? 1)).toFixed(3),
        warmMedianMsPerRequest: +median(figures.slice(1).map((f) => f.cpuMs / f.requests)).toFixed(
          3,
        ),
        rounds: figures.map((f) => ({
          cpuMs: Math.round(f.cpuMs),
          msPerRequest: +(f.cpuMs / f.requests).toFixed(3),
          wallMs: Math.round(f.wallMs),
          requests: f.requests,
        })),
      }),
    );
  } finally {
    await emulator.stop();
  }
}
