import { afterEach, describe, expect, it } from "vitest";
import { claimingLedger } from "../../src/deliver/claiming-ledger.js";
import { deliverAll } from "../../src/deliver/deliver-all.js";
import { createTeamsSender } from "../../src/destinations/msteams/teams-sender.js";
import { createWebhookSender } from "../../src/destinations/webhook/webhook-sender.js";
import { WebhookDeliveryError } from "../../src/errors.js";
import { silentLogger } from "../../src/logger.js";
import { renderTeamsDigest } from "../../src/render/teams/teams-digest.js";
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
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

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
