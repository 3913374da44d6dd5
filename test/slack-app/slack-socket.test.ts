import { afterEach, describe, expect, it } from "vitest";
import type { SlackSocketState } from "../../src/ops/slack-socket-state.js";
import { Secret } from "../../src/secret.js";
import {
  openSlackSocket,
  type SlackEnvelope,
  type SlackSocket,
} from "../../src/slack-app/slack-socket.js";
import { captureLogs } from "../daemon/daemon-harness.js";
import { waitFor } from "../daemon/live-setup.js";
import {
  FAKE_SLACK_APP_TOKEN,
  type FakeSlack,
  startFakeSlack,
} from "../fake-slack/fake-slack-server.js";

/**
 * The daemon's Socket Mode connection against the fake Slack's Socket Mode over real
 * WebSockets: connecting with the app token, acking before the work, reconnecting after a drop
 * or Slack's `disconnect`, and a refused token. Reconnect delays are shortened to 50 ms
 * through `reconnectStepMs`.
 */

let slack: FakeSlack | null = null;
let socket: SlackSocket | null = null;
afterEach(async () => {
  await socket?.stop();
  socket = null;
  await slack?.close();
  slack = null;
});

async function open(
  options: { token?: string; onEnvelope?: (e: SlackEnvelope) => Promise<void> } = {},
) {
  slack = await startFakeSlack();
  const { lines, logger } = captureLogs();
  const seen: SlackEnvelope[] = [];
  const states: SlackSocketState[] = [];
  socket = openSlackSocket({
    appToken: new Secret(options.token ?? FAKE_SLACK_APP_TOKEN),
    apiUrl: slack.url,
    logger,
    reconnectStepMs: 50,
    onEnvelope: async (envelope) => {
      seen.push(envelope);
      await options.onEnvelope?.(envelope);
    },
    metrics: {
      socketState: (state) => states.push(state),
      socketConnected: () => {},
      socketEnvelope: () => {},
    },
  });
  return { slack, socket, seen, states, logs: lines };
}

const connected = (socket: SlackSocket, connects = 1) =>
  waitFor(`connection ${connects}`, () => {
    const status = socket.status();
    return status.state === "connected" && status.connects >= connects;
  });

describe("the Slack Socket Mode connection", () => {
  it("connects with the app token and is greeted", async () => {
    const { slack, socket, states } = await open();
    await connected(socket);
    expect(slack.socket.urlsIssued()).toBe(1);
    expect(slack.socket.connections).toHaveLength(1);
    expect(slack.socket.connections[0]?.open).toBe(true);
    expect(socket.status()).toMatchObject({ state: "connected", connects: 1, problem: null });
    expect(states).toEqual(["connecting", "connected"]);
  });

  it("acknowledges an envelope before its work starts, and hands the work its payload", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let finished = false;
    const { slack, socket, seen } = await open({
      onEnvelope: async () => {
        await gate;
        finished = true;
      },
    });
    await connected(socket);

    const payload = {
      type: "block_actions",
      user: { id: "U0MARIA" },
      actions: [{ action_id: "snooze" }],
    };
    // The work is held at its gate; the ack comes anyway.
    const acked = await slack.socket.send("interactive", payload);
    expect(acked.ackedAt).not.toBeNull();
    expect(finished).toBe(false);
    expect(seen).toEqual([
      { envelopeId: acked.envelopeId, type: "interactive", body: payload, retryAttempt: 0 },
    ]);
    release();
    await waitFor("the work to finish", () => finished);
  });

  it("acknowledges slash commands and every envelope once", async () => {
    const { slack, socket, seen } = await open();
    await connected(socket);
    const command = { command: "/insights", text: "status checkout", user_id: "U0MARIA" };
    await Promise.all([
      slack.socket.send("slash_commands", command),
      slack.socket.send("interactive", { type: "block_actions" }),
      slack.socket.send("slash_commands", command),
    ]);
    expect(slack.socket.envelopes.every((e) => e.ackedAt !== null)).toBe(true);
    expect(slack.socket.strayAcks).toEqual([]);
    expect(seen.map((e) => e.type).sort()).toEqual([
      "interactive",
      "slash_commands",
      "slash_commands",
    ]);
  });

  it("reconnects after the WebSocket drops, with a fresh URL, and acks on the new connection", async () => {
    const { slack, socket, states } = await open();
    await connected(socket);
    slack.socket.drop();
    await slack.socket.openedAtLeast(2);
    await connected(socket, 2);
    expect(states).toContain("reconnecting");
    expect(slack.socket.urlsIssued()).toBe(2);
    expect(slack.socket.connections.map((c) => c.open)).toEqual([false, true]);
    const acked = await slack.socket.send("interactive", { type: "block_actions" });
    expect(acked.connectionId).toBe(2);
  });

  it("reconnects when Slack sends `disconnect`", async () => {
    const { slack, socket } = await open();
    await connected(socket);
    slack.socket.requestReconnect("refresh_requested");
    await connected(socket, 2);
    expect(slack.socket.connections.map((c) => c.open)).toEqual([false, true]);
  });

  it("is refused, and does not crash, when the token is revoked while it runs", async () => {
    // The library's own reconnect left this rejection unhandled: the daemon would have died.
    const { slack, socket } = await open();
    await connected(socket);
    slack.failNext("apps.connections.open", "token_revoked");
    slack.socket.drop();
    await waitFor("the refusal", () => socket.status().state === "refused");
    expect(socket.status().problem).toBe("token_revoked");
    expect(slack.socket.connections).toHaveLength(1);
  });

  it("keeps trying while apps.connections.open fails, then connects", async () => {
    const { slack, socket, states } = await open();
    await connected(socket);
    slack.failNext("apps.connections.open", "http500", { times: 2 });
    slack.socket.drop();
    await connected(socket, 2);
    const opens = slack.calls.filter((c) => c.method === "apps.connections.open");
    // The first connection, two failed attempts, the one that worked.
    expect(opens).toHaveLength(4);
    expect(states.filter((s) => s === "reconnecting").length).toBeGreaterThanOrEqual(1);
    expect(states.at(-1)).toBe("connected");
  });

  it("is refused for a wrong app token, says why, and never logs the token", async () => {
    const token = "xapp-1-A0FAKEAPP-1-notthetoken";
    const { slack, socket, logs } = await open({ token });
    await waitFor("the refusal", () => socket.status().state === "refused");
    expect(socket.status().problem).toBe("invalid_auth");
    expect(slack.socket.connections).toHaveLength(0);
    expect(JSON.stringify(logs)).not.toContain("notthetoken");
    expect(
      logs.some((l) => l.msg === "Slack Socket Mode refused" && l.problem === "invalid_auth"),
    ).toBe(true);
  });

  it("stays closed once stopped", async () => {
    const { slack, socket } = await open();
    await connected(socket);
    await socket.stop();
    expect(socket.status().state).toBe("stopped");
    await waitFor("the fake to see the close", () => slack.socket.connections[0]?.open === false);
    expect(slack.socket.urlsIssued()).toBe(1);
  });
});
