import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { claimingLedger } from "../../src/deliver/claiming-ledger.js";
import { deliverAll } from "../../src/deliver/deliver-all.js";
import { renderTeamsDigest } from "../../src/destinations/msteams/messages/teams-digest.js";
import { createTeamsSender } from "../../src/destinations/msteams/teams-sender.js";
import { createSlackClient } from "../../src/destinations/slack/slack-client.js";
import { toSlackDeliveryError } from "../../src/destinations/slack/slack-errors.js";
import { createWebhookSender } from "../../src/destinations/webhook/webhook-sender.js";
import { WebhookDeliveryError } from "../../src/errors.js";
import { silentLogger } from "../../src/logger.js";
import { Secret } from "../../src/secret.js";
import { type FakeEndpoint, startFakeEndpoint } from "../fake-webhooks/fake-endpoint.js";
import { FAKE_WEBHOOK_SECRET } from "../fake-webhooks/fake-receiver.js";
import { checkoutReport } from "../render/report-fixture.js";
import { useTempLedgers } from "../state/ledger-builders.js";

// Receivers that misbehave, over real HTTP on loopback: one that redirects the signed post
// elsewhere, one that answers with an endless body, one that echoes our headers back. What the
// URL destinations promise about them is written in src/redact-errors.ts.

const ledgers = useTempLedgers();
const servers: FakeEndpoint[] = [];
const floods: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  for (const server of floods.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const MiB = 1024 * 1024;

/**
 * A receiver answering `status` with a body of `totalBytes`, written in 64 KiB chunks only as
 * fast as the client reads them: `written` counts what the client let it write, and `closed`
 * resolves when the client hangs up (or the body is done).
 */
async function startFlood(status: number, totalBytes = 64 * MiB) {
  const state = { written: 0, finished: false };
  let closed!: () => void;
  const done = new Promise<void>((resolve) => {
    closed = resolve;
  });
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(status, { "Content-Type": "text/plain" });
      const chunk = Buffer.alloc(64 * 1024, "x");
      const pump = () => {
        while (!res.destroyed && state.written < totalBytes) {
          state.written += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
        if (!res.destroyed) {
          state.finished = true;
          res.end();
        }
      };
      res.on("close", closed);
      pump();
    });
  });
  floods.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks`, state, closed: done };
}

async function endpoint(answer: Parameters<typeof startFakeEndpoint>[0]) {
  const server = await startFakeEndpoint(answer);
  servers.push(server);
  return server;
}

const KEY = "checkout.daily.2026-11-17";
const card = renderTeamsDigest(checkoutReport());
const BODY = JSON.stringify({ version: 1, kind: "digest", key: KEY });
const webhook = (url: string) => ({
  url: new Secret(url),
  secret: new Secret(FAKE_WEBHOOK_SECRET),
  destination: "webhook:x",
});

async function failureOf(sending: Promise<unknown>): Promise<WebhookDeliveryError> {
  const error = await sending.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WebhookDeliveryError);
  return error as WebhookDeliveryError;
}

describe("a receiver that redirects", () => {
  it("does not take a webhook's signed post elsewhere, names the origin only, and records no send", async () => {
    const elsewhere = await endpoint(() => ({ status: 200, body: { ok: true } }));
    const receiver = await endpoint(() => ({
      status: 307,
      headers: { Location: `${elsewhere.origin}/collect/path?token=LEAKY-QUERY` },
    }));
    const ledger = ledgers.open();
    await ledger.recordSlot({
      key: KEY,
      team: "checkout",
      kind: "digest",
      job: "daily",
      fireAt: new Date("2026-11-18T08:00:00Z"),
      period: { start: "2026-11-17", end: "2026-11-17" },
      destinations: ["webhook:x"],
    });
    const sender = createWebhookSender({ timeoutMs: 5_000, sleep: async () => {} });
    const [result] = await deliverAll(
      KEY,
      [
        {
          id: "webhook:x",
          send: async () => {
            await sender.send(webhook(`${receiver.origin}/hooks`), KEY, BODY);
            return {};
          },
        },
      ],
      {
        ledger: claimingLedger(ledger, { owner: "test", sendTimeoutMs: 300_000, take: "open" }),
        logger: silentLogger(),
      },
    );

    expect(elsewhere.requests).toEqual([]);
    expect(receiver.requests).toHaveLength(1);
    expect(result?.status).toBe("failed");
    const message = result?.error?.message ?? "";
    expect(message).toContain(`redirected to ${elsewhere.origin}`);
    expect(message).not.toContain("/collect/path");
    expect(message).not.toContain("LEAKY-QUERY");
    const [row] = (await ledger.getSlot(KEY))?.deliveries ?? [];
    expect(row?.state).toBe("failed");
    expect(row?.lastError).toBe(message);
  });

  it("does not take a Teams card elsewhere either", async () => {
    const elsewhere = await endpoint(() => ({ status: 202 }));
    const workflow = await endpoint(() => ({
      status: 302,
      headers: { Location: `${elsewhere.origin}/workflows/other?sig=LEAKY-SIG` },
    }));
    const sender = createTeamsSender({ timeoutMs: 5_000, sleep: async () => {} });
    const error = await failureOf(
      sender.send(
        { url: new Secret(`${workflow.origin}/workflows/1`), destination: "msteams:x" },
        KEY,
        card,
      ),
    );
    expect(elsewhere.requests).toEqual([]);
    expect(error.status).toBe(302);
    expect(error.retry).toBe(false);
    expect(error.message).toContain(elsewhere.origin);
    expect(error.message).not.toContain("LEAKY-SIG");
  });
});

describe("a receiver that answers with an endless body", () => {
  // The kernel's socket buffers take a few MB the client never reads; the whole is 64 MB.
  const READ_AT_MOST = 16 * MiB;

  it.each([200, 400, 503])(
    "is read no further than a few KiB when it answers %i",
    async (status) => {
      const flood = await startFlood(status);
      const sender = createWebhookSender({ timeoutMs: 20_000, attempts: 1, sleep: async () => {} });
      await sender.send(webhook(flood.url), KEY, BODY).catch(() => {});
      await flood.closed;
      expect(flood.state.finished).toBe(false);
      expect(flood.state.written).toBeLessThan(READ_AT_MOST);
    },
  );
});

describe("a Slack API (SLACK_API_URL) that answers with an endless body", () => {
  it("is read no further than the cap of a Slack answer", async () => {
    const flood = await startFlood(200, 96 * MiB);
    const client = createSlackClient({
      token: new Secret("xoxb-flood-test"),
      apiUrl: flood.url.replace(/hooks$/, "api/"),
      retries: 0,
      timeoutMs: 20_000,
    });
    const site = { method: "chat.postMessage", channel: "C0123ABCD" };
    const error = await client.chat.postMessage({ channel: "C0123ABCD", text: "hi" }).then(
      () => null,
      (e: unknown) => toSlackDeliveryError(e, site),
    );
    expect(error?.message).toContain("was larger than a Slack answer can be");
    await flood.closed;
    expect(flood.state.finished).toBe(false);
    // 8 MiB read at most (a page of channel history may be a few MB), plus socket buffers.
    expect(flood.state.written).toBeLessThan(24 * MiB);
  });
});

describe("a receiver that echoes the request into its answer", () => {
  it("is quoted as a short excerpt: no header value we sent, no control characters", async () => {
    let sent: Record<string, unknown> = {};
    const receiver = await endpoint((request) => {
      sent = request.headers;
      const echoed = JSON.stringify(request.headers);
      return {
        status: 400,
        body: `bad\u001b[31m body\r\n\u202e${echoed}${"z".repeat(2_000)}`,
      };
    });
    const sender = createWebhookSender({ timeoutMs: 5_000, sleep: async () => {} });
    const error = await failureOf(sender.send(webhook(`${receiver.origin}/hooks`), KEY, BODY));
    expect(error.status).toBe(400);
    const message = error.message;
    expect(message).toContain("(400: bad");
    for (const name of ["x-insights-signature", "idempotency-key"]) {
      const value = String(sent[name]);
      expect(value.length).toBeGreaterThan(8);
      expect(message).not.toContain(value);
    }
    expect(message).not.toMatch(/[\p{Cc}\p{Cf}]/u);
    const excerpt = /\(400: (.*)\)/.exec(message)?.[1] ?? "";
    expect(excerpt.length).toBeLessThanOrEqual(200);
  });

  it("quotes a Teams workflow's answer without the URL's signature it echoed", async () => {
    const workflow = await endpoint((request) => ({
      status: 400,
      body: { error: { message: `bad card posted to ${request.path}` } },
    }));
    const url = `${workflow.origin}/workflows/1/triggers/manual/run?sig=ECHOED-SIG-0123456789`;
    const sender = createTeamsSender({ timeoutMs: 5_000, sleep: async () => {} });
    const error = await failureOf(
      sender.send({ url: new Secret(url), destination: "msteams:x" }, KEY, card),
    );
    expect(error.message).toContain("bad card posted to");
    expect(error.message).not.toContain("ECHOED-SIG-0123456789");
  });
});
