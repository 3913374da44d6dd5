import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { backfillCommand } from "../src/commands/backfill-command.js";
import { parseConfigText } from "../src/config/load-config.js";
import { startDaemonService } from "../src/daemon/daemon-service.js";
import { silentLogger } from "../src/logger.js";
import { startEmulatorProcess } from "./bench-support.js";
import { cycleTeams, POOL, projectIds, sumCounter } from "./cycle-bench.js";

// A day of digests and alerts once the day store is warm: 50 teams × 12 projects (520 distinct),
// each team with four digests (a day against the day before, a day against the median of its
// last 4 weekdays, the last 7 and the last 28 days) and an alert, every one due at 09:00 UTC.
// The store is filled by `backfill` first; the goal is one request per project, zone and filter
// set, whatever the number of digests and alerts.

export interface WarmDayFigures {
  requests: number;
  projects: number;
  digests: number;
  alerts: number;
}

/** The config of the warm day, with its ledger (and day store) at `statePath`. */
function warmConfig(ids: readonly string[], statePath: string): string {
  const teams = cycleTeams(ids, "0 9 * * *");
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
  const digests: [string, string][] = [
    ["previous_day", "previous_period"],
    ["previous_day", "median_of_4_weeks"],
    ["last_7_days", "previous_period"],
    ["last_28_days", "previous_period"],
  ];
  for (const team of teams) {
    const channel = `C0${team.name.toUpperCase().replace(/[^A-Z0-9]/g, "")}`;
    lines.push(
      `  - name: ${team.name}`,
      "    timezone: Etc/UTC",
      "    projects:",
      ...team.projects.map((id) => `      - id: ${id}`),
      "    digests:",
      ...digests.flatMap(([period, compareTo], i) => [
        `      - name: digest-${i + 1}`,
        '        schedule: "0 9 * * *"',
        `        period: ${period}`,
        `        compare_to: ${compareTo}`,
        `        slack: { channel: ${channel} }`,
      ]),
      "    alerts:",
      "      - name: flaky",
      "        metric: flaky_rate",
      "        window: previous_day",
      '        schedule: "0 9 * * *"',
      "        warn_at: 3",
      "        critical_at: 5",
      "        clear_at: 2.5",
      `        slack: { channel: ${channel} }`,
    );
  }
  return `${lines.join("\n")}\n`;
}

/** Fills the store at 08:00, then runs the 09:00 tick through the daemon and counts requests. */
export async function measureWarmDay(today: string): Promise<WarmDayFigures> {
  const emulator = await startEmulatorProcess(["--projects", String(POOL), "--today", today]);
  const dir = await mkdtemp(join(tmpdir(), "store-bench-"));
  try {
    const ids = await projectIds(emulator.url);
    const text = warmConfig(ids, join(dir, "ledger.sqlite"));
    const path = join(dir, "bench.yaml");
    await writeFile(
      path,
      text
        .replaceAll("${INSIGHTS_API_URL}", emulator.url)
        .replaceAll("${INSIGHTS_API_KEY}", "demo-key"),
    );
    const quiet = { isTTY: false } as NodeJS.WriteStream;
    const filled = await backfillCommand(
      { config: path },
      () => {},
      () => new Date(`${today}T08:00:00Z`),
      quiet,
    );
    if (filled !== 0) throw new Error("the backfill did not fill every series");

    const config = parseConfigText(text, "bench.yaml", {
      env: { INSIGHTS_API_URL: emulator.url, INSIGHTS_API_KEY: "demo-key" },
      requireCredentials: false,
    });
    const fireAt = Date.parse(`${today}T09:00:00.500Z`);
    const startedReal = Date.now();
    const outbox = join(dir, "outbox");
    const service = await startDaemonService(config, {
      logger: silentLogger(),
      outbox,
      now: () => new Date(fireAt + (Date.now() - startedReal)),
    });
    await new Promise((resolve) => setImmediate(resolve));
    await service.daemon.idle();
    const metrics = await (await fetch(`${service.opsUrl}/metrics`)).text();
    await service.stop(5_000);
    return {
      requests: sumCounter(metrics, "insights_reporter_api_requests_total"),
      projects: new Set(config.teams.flatMap((t) => t.projects.map((p) => p.id))).size,
      digests: config.teams.reduce((n, team) => n + team.digests.length, 0),
      alerts: config.teams.reduce((n, team) => n + team.alerts.length, 0),
    };
  } finally {
    await emulator.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith("store-bench.ts")) {
  const today = process.argv[2] ?? new Date().toISOString().slice(0, 10);
  console.log(JSON.stringify(await measureWarmDay(today)));
}
