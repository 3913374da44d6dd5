import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { backfillCommand } from "../src/commands/backfill-command.js";
import { parseConfigText } from "../src/config/load-config.js";
import { startDaemonService } from "../src/daemon/daemon-service.js";
import { type RunningEmulator, startEmulator } from "../src/insights/emulator/start-emulator.js";
import { silentLogger } from "../src/logger.js";
import { cycleTeams, POOL } from "./cycle-bench.js";

// What slices cost (issue 37 item 5): 50 teams × 12 projects (520 distinct), each team with one
// previous_day digest and `attribution: { branches: [main, release-2.3, feature-x] }`, the day
// store warmed by `backfill`, then the 09:00 tick. Requests are counted at the emulator (its
// request log). The same day is run without attribution; the goal is sliced ≤ unsliced +
// 2 periods × 3 branches × projects with news. The day's news comes from the emulator's seeded
// data ("demo" seed): a project has news when the reporter asks for its slices (a `branch=`
// request), and that count is reported with its share of the 520. Then a day with no news: the
// same 50 × 12 teams drawn only from the projects that had none (drawn again until none has),
// sliced and unsliced; the goal is no extra request at all.

export const BRANCHES = ["main", "release-2.3", "feature-x"];

export interface SlicesFigures {
  projects: number;
  newsProjects: number;
  unsliced: number;
  sliced: number;
  /** Slice requests per project with news, at most. */
  maxPerNewsProject: number;
  quietProjects: number;
  quietUnsliced: number;
  quietSliced: number;
}

function slicesConfig(ids: readonly string[], statePath: string, sliced: boolean): string {
  const lines = [
    "api:",
    "  url: ${INSIGHTS_API_URL}",
    "  key: ${INSIGHTS_API_KEY}",
    "  concurrency: 16",
    "state:",
    `  path: ${JSON.stringify(statePath)}`,
    "server:",
    "  port: 0",
    "teams:",
  ];
  for (const team of cycleTeams(ids, "0 9 * * *")) {
    lines.push(
      `  - name: ${team.name}`,
      "    timezone: Etc/UTC",
      ...(sliced ? [`    attribution: { branches: [${BRANCHES.join(", ")}] }`] : []),
      "    projects:",
      ...team.projects.map((id) => `      - id: ${id}`),
      "    digests:",
      "      - name: daily",
      '        schedule: "0 9 * * *"',
      "        period: previous_day",
      "        compare_to: previous_period",
      `        slack: { channel: C0${team.name.toUpperCase().replace(/[^A-Z0-9]/g, "")} }`,
    );
  }
  return `${lines.join("\n")}\n`;
}

/** Backfills a fresh store at 08:00, runs the 09:00 tick, and returns the tick's requests. */
async function tickRequests(
  emulator: RunningEmulator,
  ids: readonly string[],
  today: string,
  sliced: boolean,
): Promise<{ path: string; query: Record<string, string> }[]> {
  const dir = await mkdtemp(join(tmpdir(), "slices-bench-"));
  try {
    const text = slicesConfig(ids, join(dir, "ledger.sqlite"), sliced);
    const path = join(dir, "bench.yaml");
    await writeFile(
      path,
      text
        .replaceAll("${INSIGHTS_API_URL}", emulator.url)
        .replaceAll("${INSIGHTS_API_KEY}", "demo-key"),
    );
    const quiet = { isTTY: false } as NodeJS.WriteStream;
    const at8 = () => new Date(`${today}T08:00:00Z`);
    if ((await backfillCommand({ config: path }, () => {}, at8, quiet)) !== 0) {
      throw new Error("the backfill did not fill every series");
    }
    const config = parseConfigText(text, "bench.yaml", {
      env: { INSIGHTS_API_URL: emulator.url, INSIGHTS_API_KEY: "demo-key" },
      requireCredentials: false,
    });
    const from = emulator.requestLog.length;
    const fireAt = Date.parse(`${today}T09:00:00.500Z`);
    const startedReal = Date.now();
    const service = await startDaemonService(config, {
      logger: silentLogger(),
      outbox: join(dir, "outbox"),
      now: () => new Date(fireAt + (Date.now() - startedReal)),
    });
    await new Promise((resolve) => setImmediate(resolve));
    await service.daemon.idle();
    await service.stop(5_000);
    return emulator.requestLog.slice(from);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const projectOf = (path: string) => /\/projects\/([^/]+)\/insights$/.exec(path)?.[1];

/** The four ticks: sliced and not, on the day with news and on the teams without. */
export async function measureSlices(today: string): Promise<SlicesFigures> {
  const emulator = await startEmulator({ projects: POOL, today });
  try {
    const ids = emulator.projects.map((p) => p.id);
    const unsliced = await tickRequests(emulator, ids, today, false);
    const sliced = await tickRequests(emulator, ids, today, true);
    const slicesByProject = new Map<string, number>();
    for (const r of sliced) {
      const id = projectOf(r.path);
      if (id && r.query.branch !== undefined) {
        slicesByProject.set(id, (slicesByProject.get(id) ?? 0) + 1);
      }
    }
    // A project's news depends on its team (a digest's news lines are ranked and capped), so
    // the quiet teams are drawn again until none of their projects asks for slices.
    let quiet = ids.filter((id) => !slicesByProject.has(id));
    let quietSliced = await tickRequests(emulator, quiet, today, true);
    for (let round = 0; round < 5 && quietSliced.some((r) => r.query.branch); round++) {
      const newsy = new Set(
        quietSliced.filter((r) => r.query.branch).map((r) => projectOf(r.path)),
      );
      quiet = quiet.filter((id) => !newsy.has(id));
      quietSliced = await tickRequests(emulator, quiet, today, true);
    }
    const quietUnsliced = await tickRequests(emulator, quiet, today, false);
    return {
      projects: ids.length,
      newsProjects: slicesByProject.size,
      unsliced: unsliced.length,
      sliced: sliced.length,
      maxPerNewsProject: Math.max(0, ...slicesByProject.values()),
      quietProjects: new Set(cycleTeams(quiet, "").flatMap((t) => t.projects)).size,
      quietUnsliced: quietUnsliced.length,
      quietSliced: quietSliced.length,
    };
  } finally {
    await emulator.close();
  }
}

/** The goal of the day with news: unsliced + 2 × 3 × projects with news. */
export const slicedGoal = (f: SlicesFigures) => f.unsliced + 2 * BRANCHES.length * f.newsProjects;

// `npx tsx bench/slices-bench.ts [today]`: the figures as JSON.
if (process.argv[1]?.endsWith("slices-bench.ts")) {
  const today = process.argv[2] ?? new Date().toISOString().slice(0, 10);
  const figures = await measureSlices(today);
  console.log(JSON.stringify({ ...figures, goal: slicedGoal(figures) }));
}
