import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import { stringify } from "yaml";
import { type RunningEmulator, startEmulator } from "../../src/insights/emulator/start-emulator.js";
import {
  FAKE_SLACK_TOKEN,
  type FakeSlack,
  startFakeSlack,
} from "../fake-slack/fake-slack-server.js";
import { type DaemonProcess, startDaemonProcess } from "./daemon-process.js";
import { digestPosts } from "./live-setup.js";

// Several daemons (`start`, the built binary) against one PostgreSQL, the emulator and the fake
// Slack, every team's digest due at every minute (one slot per team and week).

export interface ReplicaSetup {
  configPath: string;
  env: NodeJS.ProcessEnv;
  emulator: RunningEmulator;
  slack: FakeSlack;
  daemons: DaemonProcess[];
  start(): DaemonProcess;
  close(): Promise<void>;
}

export async function replicaSetup(options: {
  teams: number;
  databaseUrl: string;
  sendTimeout: string;
  latencyMs?: number;
}): Promise<ReplicaSetup> {
  const emulator = await startEmulator({ projects: 3, latencyMs: options.latencyMs ?? 0 });
  const slack = await startFakeSlack();
  const dir = mkdtempSync(join(tmpdir(), "replicas-"));
  const configPath = join(dir, "reporter.yaml");
  const projects = emulator.projects.slice(0, 2).map((p) => ({ id: p.id }));
  const teams = Array.from({ length: options.teams }, (_, i) => ({
    name: `team-${i + 1}`,
    timezone: "Europe/Berlin",
    projects,
    digests: [
      {
        name: "weekly",
        // Due at every minute, so the current minute's fire is due at start; all fires of a
        // week cover the same period, so they are one slot per team.
        schedule: "* * * * *",
        period: "previous_week",
        catch_up: "1h",
        slack: { channel: "C0123ABCD" },
      },
    ],
  }));
  const config = {
    api: { url: "${INSIGHTS_API_URL}", key: "${INSIGHTS_API_KEY}", concurrency: 2 },
    state: { url: "${DATABASE_URL}", send_timeout: options.sendTimeout },
    server: { host: "127.0.0.1", port: 0 },
    teams,
  };
  writeFileSync(configPath, stringify(config));
  const env = {
    INSIGHTS_API_URL: emulator.url,
    INSIGHTS_API_KEY: "demo-key",
    SLACK_BOT_TOKEN: FAKE_SLACK_TOKEN,
    SLACK_API_URL: slack.url,
    DATABASE_URL: options.databaseUrl,
  };
  const daemons: DaemonProcess[] = [];
  return {
    configPath,
    env,
    emulator,
    slack,
    daemons,
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
  };
}

/** The digests posted, by slot key (from the message metadata). */
export function postsByKey(slack: FakeSlack): Map<string, number> {
  const counts = new Map<string, number>();
  for (const post of digestPosts(slack)) {
    const key = String(post.metadata?.event_payload.key);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

export const doneBy = (daemon: DaemonProcess) => daemon.logs.filter((l) => l.msg === "digest done");

export async function stopAll(daemons: DaemonProcess[]): Promise<void> {
  for (const d of daemons) d.child.kill("SIGTERM");
  const exits = await Promise.all(daemons.map((d) => d.exit));
  expect(exits.map((e) => e.code)).toEqual(daemons.map(() => 0));
}
