import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect, createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify } from "yaml";
import { type RunningEmulator, startEmulator } from "../../src/insights/emulator/start-emulator.js";
import {
  DEFAULT_CHANNELS,
  FAKE_SLACK_TOKEN,
  type FakeChannel,
  type FakeSlack,
  startFakeSlack,
} from "../fake-slack/fake-slack-server.js";
import { startSmtpServer, type TestSmtpServer } from "../smtp/start-smtp-server.js";

/**
 * Everything a daemon talks to, on loopback: the insights emulator, the fake Slack, and an SMTP
 * server behind a relay that can be "down" (it drops every connection) — plus a temp dir with
 * a config whose one digest is due at every minute.
 */

export interface SmtpRelay {
  port: number;
  /** Down: every connection is dropped at once, as when the mail server is unreachable. */
  setDown(down: boolean): void;
  close(): Promise<void>;
}

/** A TCP relay to `targetPort` on 127.0.0.1 that can refuse service. */
export async function startRelay(targetPort: number): Promise<SmtpRelay> {
  let down = false;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    if (down) {
      client.destroy();
      return;
    }
    const upstream = connect(targetPort, "127.0.0.1");
    sockets.add(upstream);
    upstream.on("close", () => sockets.delete(upstream));
    client.pipe(upstream).pipe(client);
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("relay has no port");
  return {
    port: address.port,
    setDown: (value) => {
      down = value;
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

export interface LiveSetup {
  dir: string;
  configPath: string;
  ledgerPath: string;
  emulator: RunningEmulator;
  slack: FakeSlack;
  smtp: TestSmtpServer;
  relay: SmtpRelay;
  /** The environment a daemon needs: API, Slack and SMTP pointed at the fakes. */
  env: NodeJS.ProcessEnv;
  close(): Promise<void>;
}

export interface LiveConfigOptions {
  /** Deliver by email too (through the relay). */
  email?: boolean;
  /** Upload the workbook into the Slack thread. */
  attachXlsx?: boolean;
  /** Draw the weekly digest's charts (off unless asked, though a week has them by default). */
  charts?: boolean;
  /** `state.send_timeout` (default the config's own, 5m). */
  sendTimeout?: string;
  /** The team's digests, in place of the one weekly digest the options above shape. */
  digests?: Array<Record<string, unknown>>;
  /** Channels of the fake Slack besides its default ones. */
  extraChannels?: FakeChannel[];
}

/** Starts the fakes and writes the config; `close` stops them and removes the dir. */
export async function startLiveSetup(options: LiveConfigOptions = {}): Promise<LiveSetup> {
  const emulator = await startEmulator({ projects: 3 });
  const slack = await startFakeSlack({
    channels: [...DEFAULT_CHANNELS, ...(options.extraChannels ?? [])],
  });
  const smtp = await startSmtpServer();
  const relay = await startRelay(smtp.port);
  const dir = mkdtempSync(join(tmpdir(), "daemon-live-"));
  const ledgerPath = join(dir, "state", "ledger.sqlite");
  const configPath = join(dir, "reporter.yaml");
  const projects = emulator.projects.slice(0, 2).map((p) => ({ id: p.id }));
  const config = {
    api: { url: "${INSIGHTS_API_URL}", key: "${INSIGHTS_API_KEY}", max_attempts: 2 },
    email: { from: "Test insights <insights@example.com>" },
    state: {
      path: ledgerPath,
      ...(options.sendTimeout ? { send_timeout: options.sendTimeout } : {}),
    },
    server: { host: "127.0.0.1", port: 0 },
    teams: [
      {
        name: "checkout",
        timezone: "Europe/Berlin",
        projects,
        digests: options.digests ?? [
          {
            name: "weekly",
            // Due at every minute, so the current minute's fire is due at start; all fires of
            // a week cover the same period, so they are one slot.
            schedule: "* * * * *",
            period: "previous_week",
            catch_up: "1h",
            // Charts only where a test asks for them (they are on by default for a week).
            charts: options.charts ?? false,
            slack: { channel: "C0123ABCD", ...(options.attachXlsx ? { attach_xlsx: true } : {}) },
            ...(options.email ? { email: { to: ["qa@example.com"], attach_xlsx: false } } : {}),
          },
        ],
      },
    ],
  };
  writeFileSync(configPath, stringify(config));
  const env: NodeJS.ProcessEnv = {
    INSIGHTS_API_URL: emulator.url,
    INSIGHTS_API_KEY: "demo-key",
    SLACK_BOT_TOKEN: FAKE_SLACK_TOKEN,
    SLACK_API_URL: slack.url,
    SMTP_URL: `smtp://127.0.0.1:${relay.port}`,
  };
  return {
    dir,
    configPath,
    ledgerPath,
    emulator,
    slack,
    smtp,
    relay,
    env,
    async close() {
      await relay.close();
      await smtp.close();
      await slack.close();
      await emulator.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The digests posted to the fake Slack: messages in the channel, not replies in their threads. */
export function digestPosts(slack: FakeSlack) {
  return slack.posts.filter((p) => p.thread_ts === null);
}

/** Polls `check` every 25 ms until it is truthy; fails naming `what` after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => T | Promise<T>,
  timeoutMs = 10_000,
): Promise<NonNullable<T>> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
