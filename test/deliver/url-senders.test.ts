import { afterEach, describe, expect, it } from "vitest";
import { renderTeamsDigest } from "../../src/destinations/msteams/messages/teams-digest.js";
import { createTeamsSender } from "../../src/destinations/msteams/teams-sender.js";
import { createWebhookSender } from "../../src/destinations/webhook/webhook-sender.js";
import { WebhookDeliveryError, worthRetrying } from "../../src/errors.js";
import { Secret } from "../../src/secret.js";
import {
  FAKE_WEBHOOK_SECRET,
  type FakeReceiver,
  startFakeReceiver,
} from "../fake-webhooks/fake-receiver.js";
import { FAKE_TEAMS_SIG, type FakeTeams, startFakeTeams } from "../fake-webhooks/fake-teams.js";
import { checkoutReport } from "../render/report-fixture.js";

// The two URL destinations' senders against the fakes, over real HTTP: what is retried within
// a send (429 and 5xx, after Retry-After), what ends it for a later retry (a timeout, a long
// Retry-After) and what is given up with the fix named (404, 413, a refused signature).

const card = renderTeamsDigest(checkoutReport());
let teams: FakeTeams | null = null;
let receiver: FakeReceiver | null = null;
afterEach(async () => {
  await teams?.close();
  await receiver?.close();
  teams = receiver = null;
});

function sender(waits: number[], timeoutMs = 5_000) {
  return createTeamsSender({ timeoutMs, sleep: async (ms) => void waits.push(ms) });
}

async function failureOf(sending: Promise<unknown>): Promise<WebhookDeliveryError> {
  const error = await sending.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WebhookDeliveryError);
  return error as WebhookDeliveryError;
}

describe("the Teams sender", () => {
  it("waits out a 429's Retry-After, then delivers the card once", async () => {
    teams = await startFakeTeams();
    teams.failNext(429, { retryAfter: 2 });
    const waits: number[] = [];
    await sender(waits).send({ url: new Secret(teams.url), destination: "msteams:x" }, "k", card);
    expect(waits).toEqual([2_000]);
    expect(teams.requests.map((r) => r.status)).toEqual([429, 202]);
    expect(teams.cards.map((c) => c.message)).toEqual([card]);
  });

  it("gives up on a deleted workflow at once, naming the fix and not the URL", async () => {
    teams = await startFakeTeams();
    teams.deleteWorkflow();
    const waits: number[] = [];
    const error = await failureOf(
      sender(waits).send({ url: new Secret(teams.url), destination: "msteams:x" }, "k", card),
    );
    expect(error.status).toBe(404);
    expect(worthRetrying(error)).toBe(false);
    expect(error.message).toContain("was deleted or its URL changed");
    expect(error.message).toContain("msteams.webhook_url");
    expect(
      `${error.message} ${JSON.stringify(error)} ${JSON.stringify(error.context)}`,
    ).not.toContain(FAKE_TEAMS_SIG);
    expect(teams.requests).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it("gives up on 413 (card too large) at once", async () => {
    teams = await startFakeTeams();
    teams.failNext(413);
    const error = await failureOf(
      sender([]).send({ url: new Secret(teams.url), destination: "msteams:x" }, "k", card),
    );
    expect([error.status, error.retry]).toEqual([413, false]);
    expect(error.message).toContain("too large");
    expect(teams.requests).toHaveLength(1);
  });

  it("tries a 503 three times with backoff, then leaves it to the retry schedule", async () => {
    teams = await startFakeTeams();
    teams.failNext(503, { times: 3 });
    const waits: number[] = [];
    const error = await failureOf(
      sender(waits).send({ url: new Secret(teams.url), destination: "msteams:x" }, "k", card),
    );
    expect([error.status, worthRetrying(error)]).toEqual([503, true]);
    expect(waits).toEqual([1_000, 2_000]);
    expect(teams.cards).toEqual([]);
  });

  it("does not post again within the send after a timeout: the card may have landed", async () => {
    teams = await startFakeTeams();
    const held = teams.holdNext();
    const sending = sender([], 300).send(
      { url: new Secret(teams.url), destination: "msteams:x" },
      "k",
      card,
    );
    await held.arrived;
    const error = await failureOf(sending);
    held.neverAnswer();
    expect([error.status, worthRetrying(error)]).toEqual([null, true]);
    expect(error.message).toContain("did not answer (no answer within 300 ms)");
    expect(teams.requests).toHaveLength(1);
  });

  it("leaves a Retry-After longer than a send may wait to the retry schedule", async () => {
    teams = await startFakeTeams();
    teams.failNext(429, { retryAfter: 3600 });
    const waits: number[] = [];
    const error = await failureOf(
      sender(waits).send({ url: new Secret(teams.url), destination: "msteams:x" }, "k", card),
    );
    expect([error.status, error.retry]).toEqual([429, true]);
    expect(waits).toEqual([]);
  });
});

describe("the webhook sender", () => {
  const body = JSON.stringify({ version: 1, kind: "digest", key: "k" });
  const target = (url: string, secret = FAKE_WEBHOOK_SECRET) => ({
    url: new Secret(url),
    secret: new Secret(secret),
    destination: "webhook:x",
  });

  it("signs each attempt afresh, with the same Idempotency-Key, through two 429s", async () => {
    let clock = 1_795_000_000_000;
    receiver = await startFakeReceiver(FAKE_WEBHOOK_SECRET, () => clock / 1000);
    receiver.failNext(429, { retryAfter: 1, times: 2 });
    const waits: number[] = [];
    const send = createWebhookSender({
      timeoutMs: 5_000,
      now: () => clock,
      sleep: async (ms) => {
        waits.push(ms);
        clock += ms;
      },
    });
    await send.send(target(receiver.url), "k", body);
    expect(waits).toEqual([1_000, 1_000]);
    const sent = receiver.requests.map((r) => [
      r.headers["x-insights-timestamp"],
      r.headers["idempotency-key"],
      r.status,
    ]);
    expect(sent).toEqual([
      ["1795000000", "k", 429],
      ["1795000001", "k", 429],
      ["1795000002", "k", 200],
    ]);
    expect(receiver.keys).toEqual(["k"]);
  });

  it("is verified and taken by the receiver, once per key", async () => {
    receiver = await startFakeReceiver();
    receiver.failNext(503);
    const send = createWebhookSender({ timeoutMs: 5_000, sleep: async () => {} });
    await send.send(target(receiver.url), "checkout.daily.2026-11-18", body);
    expect(receiver.requests.map((r) => r.status)).toEqual([503, 200]);
    expect(receiver.keys).toEqual(["checkout.daily.2026-11-18"]);
    expect(receiver.accepted[0]?.body).toEqual(JSON.parse(body));
  });

  it("gives up when the receiver refuses the signature, saying to check the secret", async () => {
    receiver = await startFakeReceiver();
    const send = createWebhookSender({ timeoutMs: 5_000, sleep: async () => {} });
    const error = await failureOf(send.send(target(receiver.url, "wrong-secret"), "k", body));
    expect([error.status, error.retry]).toEqual([401, false]);
    expect(error.message).toContain("webhook.secret");
    expect(receiver.refused.map((r) => r.reason)).toEqual(["mismatch"]);
  });
});
