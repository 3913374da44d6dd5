import { afterEach, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import {
  FAKE_SLACK_APP_TOKEN,
  FAKE_SLACK_TOKEN,
  type FakeSlack,
  startFakeSlack,
} from "../fake-slack/fake-slack-server.js";

// The fake Socket Mode itself, spoken to with a bare WebSocket: it must refuse what Slack
// refuses and record what the client sends, or the tests built on it prove nothing.

let slack: FakeSlack | null = null;
const sockets: WebSocket[] = [];
afterEach(async () => {
  for (const ws of sockets.splice(0)) ws.terminate();
  await slack?.close();
  slack = null;
});

async function connectionsOpen(fake: FakeSlack, token: string | null) {
  const response = await fetch(`${fake.url}apps.connections.open`, {
    method: "POST",
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  return (await response.json()) as { ok: boolean; url?: string; error?: string };
}

/** Opens the URL; resolves with the socket and its first message (`hello`), or the refusal. */
function openSocket(url: string): Promise<{ ws: WebSocket; first: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    sockets.push(ws);
    ws.once("message", (data) => resolve({ ws, first: JSON.parse(String(data)) }));
    ws.once("unexpected-response", (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once("error", reject);
  });
}

describe("the fake Socket Mode", () => {
  it("hands a URL only for the app token, refusing the bot token as the wrong kind", async () => {
    slack = await startFakeSlack();
    expect(await connectionsOpen(slack, null)).toMatchObject({ ok: false, error: "not_authed" });
    expect(await connectionsOpen(slack, FAKE_SLACK_TOKEN)).toMatchObject({
      ok: false,
      error: "not_allowed_token_type",
    });
    expect(await connectionsOpen(slack, "xapp-1-other")).toMatchObject({
      ok: false,
      error: "invalid_auth",
    });
    const opened = await connectionsOpen(slack, FAKE_SLACK_APP_TOKEN);
    expect(opened.ok).toBe(true);
    expect(opened.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/link\/\?ticket=/);
    expect(slack.socket.urlsIssued()).toBe(1);
  });

  it("greets with hello, and takes each URL once", async () => {
    slack = await startFakeSlack();
    const { url } = await connectionsOpen(slack, FAKE_SLACK_APP_TOKEN);
    const { first } = await openSocket(url ?? "");
    expect(first).toMatchObject({ type: "hello", num_connections: 1 });
    await expect(openSocket(url ?? "")).rejects.toThrow("HTTP 401");
    expect(slack.socket.connections).toHaveLength(1);
  });

  it("records an ack with its envelope, and an ack of an unknown envelope as stray", async () => {
    slack = await startFakeSlack();
    const { url } = await connectionsOpen(slack, FAKE_SLACK_APP_TOKEN);
    const { ws } = await openSocket(url ?? "");
    ws.on("message", (data) => {
      const envelope = JSON.parse(String(data)) as { envelope_id: string };
      ws.send(JSON.stringify({ envelope_id: "not-sent-by-slack" }));
      ws.send(JSON.stringify({ envelope_id: envelope.envelope_id, payload: { text: "ok" } }));
    });
    const acked = await slack.socket.send("slash_commands", { command: "/insights" });
    expect(acked).toMatchObject({
      type: "slash_commands",
      connectionId: 1,
      ackPayload: { text: "ok" },
    });
    expect(acked.ackedAt).not.toBeNull();
    expect(slack.socket.strayAcks).toEqual([{ envelope_id: "not-sent-by-slack" }]);
  });

  it("rejects a send whose connection closes before the ack", async () => {
    slack = await startFakeSlack();
    const { url } = await connectionsOpen(slack, FAKE_SLACK_APP_TOKEN);
    const { ws } = await openSocket(url ?? "");
    ws.on("message", () => ws.terminate());
    await expect(slack.socket.send("interactive", { type: "block_actions" })).rejects.toThrow(
      "closed before the ack",
    );
    expect(slack.socket.envelopes[0]?.ackedAt).toBeNull();
  });
});
