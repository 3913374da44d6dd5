import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load-config.js";
import { type DaemonService, startDaemonService } from "../../src/daemon/daemon-service.js";
import { FAKE_SLACK_APP_TOKEN } from "../fake-slack/fake-slack-server.js";
import { captureLogs } from "./daemon-harness.js";
import { type LiveSetup, startLiveSetup, waitFor } from "./live-setup.js";

/**
 * The daemon with `slack.app_token` (issue 24): it opens Socket Mode against the fake Slack,
 * acks what Slack sends, reconnects after a drop, and shows the connection in /readyz and
 * /metrics. The reconnect step is shortened to 50 ms (`socketReconnectStepMs`).
 */

let live: LiveSetup | null = null;
let service: DaemonService | null = null;
afterEach(async () => {
  await service?.stop(5_000);
  service = null;
  await live?.close();
  live = null;
});

async function start(appToken: string | undefined) {
  live = await startLiveSetup();
  const env = { ...live.env, ...(appToken ? { SLACK_APP_TOKEN: appToken } : {}) };
  const config = loadConfig(live.configPath, { env });
  const { lines, logger } = captureLogs();
  service = await startDaemonService(config, {
    logger,
    tickMs: 50,
    retryDelaysMs: [200],
    socketReconnectStepMs: 50,
  });
  return { live, service, logs: lines };
}

async function readyz(service: DaemonService) {
  const response = await fetch(`${service.opsUrl}/readyz`);
  return {
    status: response.status,
    body: (await response.json()) as { checks: Record<string, { ok: boolean; detail: string }> },
  };
}

const metricsText = async (service: DaemonService) =>
  (await fetch(`${service.opsUrl}/metrics`)).text();

describe("the daemon's Slack Socket Mode", () => {
  it("connects, acks, reconnects after a drop, and shows it in /readyz and /metrics", async () => {
    const { live, service, logs } = await start(FAKE_SLACK_APP_TOKEN);
    await waitFor("connected", () => service.slackSocket()?.state === "connected");
    const ready = await waitFor("/readyz 200", async () => {
      const r = await readyz(service);
      return r.status === 200 ? r : null;
    });
    expect(ready.body.checks.slack_socket).toMatchObject({ ok: true });
    expect(ready.body.checks.slack_socket?.detail).toMatch(/^connected since .* \(1 connects\)$/);

    const press = {
      type: "block_actions",
      user: { id: "U0MARIA" },
      actions: [{ action_id: "snooze" }],
    };
    const acked = await live.slack.socket.send("interactive", press);
    expect(acked.ackedAt).not.toBeNull();
    await waitFor("the envelope's log line", () =>
      logs.find(
        (l) => l.msg === "Slack envelope acknowledged" && l.envelopeId === acked.envelopeId,
      ),
    );
    const line = logs.find((l) => l.envelopeId === acked.envelopeId);
    expect(line).toMatchObject({ type: "interactive", slackUser: "U0MARIA", action: "snooze" });

    let metrics = await metricsText(service);
    expect(metrics).toMatch(/insights_reporter_slack_socket_state\{state="connected"\} 1/);
    expect(metrics).toMatch(/insights_reporter_slack_socket_state\{state="reconnecting"\} 0/);
    expect(metrics).toMatch(/insights_reporter_slack_socket_connects_total 1/);
    expect(metrics).toMatch(
      /insights_reporter_slack_socket_envelopes_total\{type="interactive",result="acked"\} 1/,
    );
    expect(metrics).toMatch(/insights_reporter_slack_socket_ack_seconds_count 1/);

    live.slack.socket.drop();
    await waitFor("the second connection", () => (service.slackSocket()?.connects ?? 0) >= 2);
    expect(live.slack.socket.connections.map((c) => c.open)).toEqual([false, true]);
    metrics = await metricsText(service);
    expect(metrics).toMatch(/insights_reporter_slack_socket_connects_total 2/);
    expect(metrics).toMatch(/insights_reporter_slack_socket_state\{state="connected"\} 1/);
    expect((await readyz(service)).body.checks.slack_socket?.detail).toContain("(2 connects)");
    const again = await live.slack.socket.send("slash_commands", {
      command: "/insights",
      user_id: "U0MARIA",
    });
    expect(again).toMatchObject({ connectionId: 2 });
    expect(again.ackedAt).not.toBeNull();
  });

  it("answers /readyz 503 naming the fix when Slack refuses the app token, and never logs it", async () => {
    const { service, logs } = await start("xapp-1-A0FAKEAPP-1-revokedtoken");
    await waitFor("the refusal", () => service.slackSocket()?.state === "refused");
    const { status, body } = await readyz(service);
    expect(status).toBe(503);
    expect(body.checks.slack_socket?.ok).toBe(false);
    expect(body.checks.slack_socket?.detail).toContain("invalid_auth");
    expect(body.checks.slack_socket?.detail).toContain("SLACK_APP_TOKEN");
    expect(await metricsText(service)).toMatch(
      /insights_reporter_slack_socket_state\{state="refused"\} 1/,
    );
    expect(JSON.stringify(logs)).not.toContain("revokedtoken");
  });

  it("opens nothing without an app token, and /readyz has no Socket Mode check", async () => {
    const { live, service } = await start(undefined);
    const ready = await waitFor("/readyz 200", async () => {
      const r = await readyz(service);
      return r.status === 200 ? r : null;
    });
    expect(Object.keys(ready.body.checks).sort()).toEqual(["config", "ledger", "scheduler"]);
    expect(service.slackSocket()).toBeNull();
    expect(live.slack.socket.urlsIssued()).toBe(0);
    expect(await metricsText(service)).not.toMatch(/insights_reporter_slack_socket_state\{/);
  });
});
