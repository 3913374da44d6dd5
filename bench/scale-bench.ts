import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { stringify } from "yaml";
import { type RunningEmulator, startEmulator } from "../src/insights/emulator/start-emulator.js";
import { type DaemonProcess, runCli } from "../test/daemon/daemon-process.js";
import {
  FAKE_SLACK_TOKEN,
  type FakeSlack,
  startFakeSlack,
} from "../test/fake-slack/fake-slack-server.js";
import { startPostgres } from "../test/postgres/start-postgres.js";
import { DAEMON_NODE_FLAGS } from "./bench-support.js";

// At scale (issue 39 item 10): teams × 5 projects, every team's previous_day digest due in the
// same minute, against the emulator refusing past 300 requests a minute (429) and a fake Slack
// that enforces Slack's limits with 429s; the daemon (`start`, the built binary) with
// `api.max_requests_per_minute: 300`, alone on SQLite and as 3 replicas on PostgreSQL.
//
// By default scaled down, ratios kept: 1,000 teams × 5 projects is 5,000+ requests through the
// day store (one range a project), 17 minutes of a 300-a-minute budget. The bench runs 100
// teams × 5 projects (500 distinct, ~505 requests: 1.7 minutes of the same budget) with catch_up
// 6m, a tenth of the 1h a full-size install would need; 10 teams share each Slack channel (100
// channels at full size). BENCH_SCALE=full runs the whole 1,000 teams with catch_up 60m (some
// 18 minutes a run); BENCH_SCALE_TEAMS and BENCH_SCALE_CATCH_UP_MIN set either alone. Each run
// is bounded by the catch-up plus a minute.

const PER_TEAM = 5;
const BUDGET = 300;
const TEAMS_PER_CHANNEL = 10;

export interface ScaleFigures {
  replicas: number;
  teams: number;
  catchUpMin: number;
  delivered: number;
  /** Slots posted more than once. */
  duplicates: number;
  /** Seconds from the fire to the last digest posted. */
  lastPostS: number;
  apiRequests: number;
  api429: number;
  /** Most requests the emulator saw in any 60 s. */
  peakPerMinute: number;
  slack429: number;
  /** Calls in a Retry-After their own daemon was given. */
  slackUnhonoured: number;
  /** Calls in a Retry-After another replica was given (the pacers are per process). */
  slackUnwarned: number;
  /** When the API's refusals came, s after the fire: at a minute's edge, or anywhere? */
  api429AtS: number[];
  /** The calls that ignored a Retry-After their own daemon was given: method, channel, s after the fire. */
  slackUnhonouredCalls: string[];
  /** Each daemon's peak RSS (VmHWM), MB. */
  peakRssMb: number[];
  /** Seconds from the run's start (servers, daemons, the fire 20-80 s on) to its end. */
  wallS: number;
}

/** The run's size: BENCH_SCALE=full is the promise's, else a tenth of it (or as set). */
export function scaleSize(env: NodeJS.ProcessEnv = process.env): {
  teams: number;
  catchUpMin: number;
} {
  const full = env.BENCH_SCALE === "full";
  return {
    teams: Number(env.BENCH_SCALE_TEAMS ?? (full ? 1_000 : 100)),
    catchUpMin: Number(env.BENCH_SCALE_CATCH_UP_MIN ?? (full ? 60 : 6)),
  };
}

const channelOf = (team: number) => `C0SCALE${Math.floor(team / TEAMS_PER_CHANNEL)}`;

function scaleConfig(ids: readonly string[], teams: number, fire: Date, catchUpMin: number) {
  return {
    api: {
      url: "${INSIGHTS_API_URL}",
      key: "${INSIGHTS_API_KEY}",
      max_requests_per_minute: BUDGET,
    },
    state: { path: "${STATE_PATH}", url: "${DATABASE_URL}" },
    server: { host: "127.0.0.1", port: 0 },
    teams: Array.from({ length: teams }, (_, i) => ({
      name: `team-${i}`,
      timezone: "Etc/UTC",
      projects: ids.slice(i * PER_TEAM, (i + 1) * PER_TEAM).map((id) => ({ id })),
      digests: [
        {
          name: "daily",
          schedule: `${fire.getUTCMinutes()} ${fire.getUTCHours()} * * *`,
          period: "previous_day",
          catch_up: `${catchUpMin}m`,
          slack: { channel: channelOf(i) },
        },
      ],
    })),
  };
}

/** Most of `times` (sorted, ms) inside any 60 s window. */
export function peakPerMinute(times: readonly number[]): number {
  let peak = 0;
  let from = 0;
  for (let to = 0; to < times.length; to++) {
    while ((times[to] as number) - (times[from] as number) >= 60_000) from++;
    peak = Math.max(peak, to - from + 1);
  }
  return peak;
}

async function peakRssMb(daemon: DaemonProcess): Promise<number> {
  const status = await readFile(`/proc/${daemon.child.pid}/status`, "utf8").catch(() => "");
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

function postsByKey(slack: FakeSlack): Map<string, number> {
  const counts = new Map<string, number>();
  for (const post of slack.posts.filter((p) => p.thread_ts === null)) {
    const key = String(post.metadata?.event_payload.key);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** One run: the daemons start, the minute fires, and it ends when every digest is in or at the catch-up's end. */
export async function measureScale(replicas: 1 | 3): Promise<ScaleFigures> {
  const { teams, catchUpMin } = scaleSize();
  const started = Date.now();
  const emulator: RunningEmulator = await startEmulator({
    projects: teams * PER_TEAM,
    maxRequestsPerMinute: BUDGET,
  });
  const channels = Array.from({ length: Math.ceil(teams / TEAMS_PER_CHANNEL) }, (_, i) => ({
    id: channelOf(i * TEAMS_PER_CHANNEL),
    name: `scale-${i}`,
  }));
  // One bot token per daemon, so the fake tells whose 429 a call ignored.
  const tokens = Array.from({ length: replicas }, (_, i) => `${FAKE_SLACK_TOKEN}-${i}`);
  const slack = await startFakeSlack({ channels, rateLimits: true, moreTokens: tokens });
  const postgres = replicas > 1 ? await startPostgres() : null;
  const dir = await mkdtemp(join(tmpdir(), "scale-bench-"));
  const daemons: DaemonProcess[] = [];
  try {
    // The next minute, at least 20 s away, so that every daemon is up and idle when it fires.
    const fire = new Date(Math.ceil((Date.now() + 20_000) / 60_000) * 60_000);
    const ids = emulator.projects.map((p) => p.id);
    const configPath = join(dir, "reporter.yaml");
    const config = scaleConfig(ids, teams, fire, catchUpMin);
    if (postgres) delete (config.state as { path?: string }).path;
    else delete (config.state as { url?: string }).url;
    await writeFile(configPath, stringify(config));
    const env = {
      INSIGHTS_API_URL: emulator.url,
      INSIGHTS_API_KEY: "demo-key",
      SLACK_API_URL: slack.url,
      STATE_PATH: join(dir, "ledger.sqlite"),
      DATABASE_URL: postgres ? await postgres.createDatabase("scale") : "",
    };
    for (let i = 0; i < replicas; i++) {
      const own = { ...env, SLACK_BOT_TOKEN: tokens[i] };
      daemons.push(runCli(["start", "--config", configPath], own, DAEMON_NODE_FLAGS));
    }
    await Promise.all(daemons.map((d) => d.opsUrl()));
    const deadline = fire.getTime() + catchUpMin * 60_000 + 60_000;
    while (postsByKey(slack).size < teams && Date.now() < deadline) await delay(1_000);
    // A duplicate would come within the send timeout of the first post; a short wait for it.
    await delay(5_000);
    const rss = await Promise.all(daemons.map(peakRssMb));
    const posted = [...slack.posts.filter((p) => p.thread_ts === null)];
    const lastAt = Math.max(
      ...slack.calls.filter((c) => c.method === "chat.postMessage").map((c) => c.at),
    );
    const counts = postsByKey(slack);
    return {
      replicas,
      teams,
      catchUpMin,
      delivered: counts.size,
      duplicates: [...counts.values()].filter((n) => n > 1).length,
      lastPostS: posted.length > 0 ? (lastAt - fire.getTime()) / 1000 : Number.NaN,
      apiRequests: emulator.requestLog.length,
      api429: emulator.requestLog.filter((r) => r.status === 429).length,
      peakPerMinute: peakPerMinute([...emulator.arrivals].sort((a, b) => a - b)),
      slack429: slack.limits?.limited.length ?? 0,
      slackUnhonoured: slack.limits?.unhonoured.length ?? 0,
      slackUnwarned: slack.limits?.unwarned.length ?? 0,
      peakRssMb: rss,
      wallS: (Date.now() - started) / 1000,
      api429AtS: emulator.requestLog.flatMap((r, i) =>
        r.status === 429 ? [((emulator.arrivals[i] ?? 0) - fire.getTime()) / 1000] : [],
      ),
      slackUnhonouredCalls: (slack.limits?.unhonoured ?? []).map(
        (c) =>
          `${c.method} ${c.channel ?? ""} +${((c.at - fire.getTime()) / 1000).toFixed(3)} s${c.arrivedAfter === undefined ? "" : ` (arrived after +${((c.arrivedAfter - fire.getTime()) / 1000).toFixed(3)} s)`}${c.refusedAt === undefined ? "" : `, its 429 +${((c.refusedAt - fire.getTime()) / 1000).toFixed(3)} s`}`,
      ),
    };
  } finally {
    for (const d of daemons) d.child.kill("SIGTERM");
    await Promise.race([Promise.all(daemons.map((d) => d.exit)), delay(15_000)]);
    for (const d of daemons) if (d.child.exitCode === null) d.child.kill("SIGKILL");
    await slack.close();
    await emulator.close();
    await postgres?.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

// `npx tsx bench/scale-bench.ts [1|3]`: one run (1: SQLite, 3: replicas on PostgreSQL), as JSON.
if (process.argv[1]?.endsWith("scale-bench.ts")) {
  const replicas = process.argv[2] === "3" ? 3 : 1;
  console.log(JSON.stringify(await measureScale(replicas)));
}
