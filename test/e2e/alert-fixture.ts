import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DateTime } from "luxon";
import { stringify } from "yaml";
import { type RunningEmulator, startEmulator } from "../../src/insights/emulator/start-emulator.js";
import type { DaemonProcess } from "../daemon/daemon-process.js";
import { daemonsPerTest } from "../daemon/live-daemons.js";
import {
  FAKE_SLACK_TOKEN,
  type FakeSlack,
  startFakeSlack,
} from "../fake-slack/fake-slack-server.js";
import { startSmtpServer, type TestSmtpServer } from "../smtp/start-smtp-server.js";

/**
 * An alert over the emulator's spiking project (the seventh: flaky 0.8%, 1.0%, 4.2%, 7.5%,
 * 4.0%, 0.9%, 0.8% over the last 7 days before its today), delivered to the fake Slack and an
 * SMTP server on loopback.
 */
export interface AlertSetup {
  dir: string;
  configPath: string;
  ledgerPath: string;
  emulator: RunningEmulator;
  slack: FakeSlack;
  smtp: TestSmtpServer;
  env: NodeJS.ProcessEnv;
  close(): Promise<void>;
}

export const CHANNEL = "C0123ABCD";
export const MENTION = "<!subteam^S0ONCALL>";

/** The team's zone: the alert's window is its previous day there. */
const ZONE = "Europe/Berlin";

/**
 * The emulator's today, three days after the team's (Berlin's, not UTC's: from 23:00 UTC
 * Berlin is a day ahead): the team's yesterday is its 7.5% day, critical.
 */
export function spikeToday(): string {
  const today = DateTime.now().setZone(ZONE).plus({ days: 3 }).toISODate();
  if (today === null) throw new Error(`no date in ${ZONE}`);
  return today;
}

/**
 * A test file's alert setups and the daemon processes run on them: after each test every daemon
 * is SIGKILLed and the setup closed. Call it at the top of the file.
 */
export function alertDaemons(): {
  setup(options: AlertSetupOptions): Promise<AlertSetup>;
  daemon(s: AlertSetup): DaemonProcess;
} {
  const daemons = daemonsPerTest(startAlertSetup);
  return { setup: daemons.setup, daemon: (s) => daemons.start(s) };
}

/** What an alert setup is asked for. */
export interface AlertSetupOptions {
  today: string;
  schedule: string;
  /** Give the team a daily digest too (else a daemon could post it mid-test). */
  digest?: boolean;
  /** How long a send may take before another process takes it over (default 2s). */
  sendTimeout?: string;
  /** The spiking project's owners (Slack ids, email addresses); none by default. */
  owners?: string[];
  /** The alert's `chart:` (a fire's chart in its thread and mail); off by default. */
  chart?: boolean;
}

/** Starts the servers and writes a config whose alert fires on `schedule`. */
export async function startAlertSetup(options: AlertSetupOptions): Promise<AlertSetup> {
  const emulator = await startEmulator({ projects: 7, today: options.today });
  const slack = await startFakeSlack();
  const smtp = await startSmtpServer();
  const dir = mkdtempSync(join(tmpdir(), "alert-e2e-"));
  const ledgerPath = join(dir, "ledger.sqlite");
  const configPath = join(dir, "reporter.yaml");
  const spiking = emulator.projects[6]?.id;
  if (!spiking) throw new Error("the emulator has no seventh project");
  const config = {
    api: { url: "${INSIGHTS_API_URL}", key: "${INSIGHTS_API_KEY}", max_attempts: 2 },
    email: { from: "Test insights <insights@example.com>" },
    // A send cut off by a kill is taken over once this has passed since it began.
    state: { path: ledgerPath, send_timeout: options.sendTimeout ?? "2s" },
    server: { host: "127.0.0.1", port: 0 },
    teams: [
      {
        name: "design",
        title: "Design system team",
        timezone: ZONE,
        projects: [{ id: spiking, ...(options.owners ? { owners: options.owners } : {}) }],
        digests: options.digest
          ? [
              {
                name: "daily",
                schedule: "0 9 * * *",
                period: "previous_day",
                slack: { channel: CHANNEL, attach_xlsx: true },
              },
            ]
          : [],
        alerts: [
          {
            name: "flaky-rate",
            schedule: options.schedule,
            window: "previous_day",
            warn_at: 3,
            critical_at: 5,
            clear_at: 2.5,
            scope: "projects",
            catch_up: "1h",
            ...(options.chart ? { chart: true } : {}),
            slack: { channel: CHANNEL, mention: MENTION },
            email: { to: ["oncall@example.com"] },
          },
        ],
      },
    ],
  };
  writeFileSync(configPath, stringify(config));
  return {
    dir,
    configPath,
    ledgerPath,
    emulator,
    slack,
    smtp,
    env: {
      INSIGHTS_API_URL: emulator.url,
      INSIGHTS_API_KEY: "demo-key",
      SLACK_BOT_TOKEN: FAKE_SLACK_TOKEN,
      SLACK_API_URL: slack.url,
      SMTP_URL: smtp.url(),
    },
    async close() {
      await smtp.close();
      await slack.close();
      await emulator.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
