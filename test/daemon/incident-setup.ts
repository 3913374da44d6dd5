import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify } from "yaml";
import { type RunningEmulator, startEmulator } from "../../src/insights/emulator/start-emulator.js";
import {
  FAKE_SLACK_TOKEN,
  type FakePost,
  type FakeSlack,
  startFakeSlack,
} from "../fake-slack/fake-slack-server.js";
import { type DaemonProcess, startDaemonProcess } from "./daemon-process.js";

// Daemons whose alerts fire for three projects in two teams at once (issue 38 item 3): a runs
// alert no emulator project can pass, due every minute, so the first tick fires all three;
// incidents go to a channel of their own. The ledger is an SQLite file or a PostgreSQL url.

export const TEAM_A = "C0123ABCD";
export const TEAM_B = "C0ALERTS";
export const INCIDENTS = "C0INCIDENTS";

export interface IncidentSetup {
  slack: FakeSlack;
  start(): DaemonProcess;
  close(): Promise<void>;
}

export async function incidentSetup(ledger: { path: string } | { url: string }) {
  const emulator: RunningEmulator = await startEmulator({ projects: 3 });
  const slack = await startFakeSlack({
    channels: [
      { id: TEAM_A, name: "team-a-alerts" },
      { id: TEAM_B, name: "team-b-alerts" },
      { id: INCIDENTS, name: "incidents" },
    ],
  });
  const dir = mkdtempSync(join(tmpdir(), "incidents-"));
  const configPath = join(dir, "reporter.yaml");
  const ids = emulator.projects.map((p) => p.id);
  const alert = (channel: string) => ({
    name: "runs-low",
    schedule: "* * * * *",
    window: "previous_day",
    metric: "runs",
    warn_at: 1_000_000,
    critical_at: 900_000,
    clear_at: 1_100_000,
    scope: "projects",
    catch_up: "1h",
    slack: { channel },
  });
  const team = (name: string, projects: string[], channel: string) => ({
    name,
    timezone: "Europe/Berlin",
    projects: projects.map((id) => ({ id })),
    alerts: [alert(channel)],
  });
  const config = {
    api: { url: "${INSIGHTS_API_URL}", key: "${INSIGHTS_API_KEY}", concurrency: 2 },
    state: {
      ...("url" in ledger ? { url: "${DATABASE_URL}" } : { path: join(dir, ledger.path) }),
      send_timeout: "10s",
    },
    server: { host: "127.0.0.1", port: 0 },
    incidents: { min_projects: 3, slack: { channel: INCIDENTS } },
    teams: [team("team-a", ids.slice(0, 2), TEAM_A), team("team-b", ids.slice(2, 3), TEAM_B)],
  };
  writeFileSync(configPath, stringify(config));
  const env = {
    INSIGHTS_API_URL: emulator.url,
    INSIGHTS_API_KEY: "demo-key",
    SLACK_BOT_TOKEN: FAKE_SLACK_TOKEN,
    SLACK_API_URL: slack.url,
    ...("url" in ledger ? { DATABASE_URL: ledger.url } : {}),
  };
  const daemons: DaemonProcess[] = [];
  return {
    slack,
    start() {
      const daemon = startDaemonProcess(configPath, env);
      daemons.push(daemon);
      return daemon;
    },
    async close() {
      for (const d of daemons) {
        if (d.child.exitCode === null && d.child.signalCode === null) d.child.kill("SIGKILL");
      }
      await Promise.all(daemons.map((d) => d.exit));
      await slack.close();
      await emulator.close();
      rmSync(dir, { recursive: true, force: true });
    },
  } satisfies IncidentSetup;
}

/** The incident posts (top level, in the incidents channel) and the replies under each. */
export function incidentThreads(slack: FakeSlack): { post: FakePost; replies: FakePost[] }[] {
  return slack.posts
    .filter((p) => p.channel === INCIDENTS && p.thread_ts === null)
    .map((post) => ({
      post,
      replies: slack.posts.filter((r) => r.channel === INCIDENTS && r.thread_ts === post.ts),
    }));
}

/** The alert messages that opened a fire in a team's channel. */
export function teamMessages(slack: FakeSlack): FakePost[] {
  return slack.posts.filter((p) => p.channel !== INCIDENTS && p.thread_ts === null);
}
