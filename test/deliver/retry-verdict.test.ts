import { afterEach, describe, expect, it } from "vitest";
import { claimingLedger } from "../../src/deliver/claiming-ledger.js";
import { deliverAll } from "../../src/deliver/deliver-all.js";
import { smtpError } from "../../src/destinations/email/email-errors.js";
import { createSlackClients } from "../../src/destinations/slack/slack-client.js";
import { createSlackDestination } from "../../src/destinations/slack/slack-destination.js";
import { silentLogger } from "../../src/logger.js";
import type { SlackPost } from "../../src/messages.js";
import { Secret } from "../../src/secret.js";
import {
  FAKE_SLACK_TOKEN,
  type FakeFailure,
  type FakeSlack,
  startFakeSlack,
} from "../fake-slack/fake-slack-server.js";
import { aSlot, useTempLedgers } from "../state/ledger-builders.js";

// The sender decides whether a failure is worth another attempt (Alertmanager's
// `Notify → retry bool`): a refused token, a channel the bot cannot post in, or our own
// malformed message is given up at once, not retried for hours like Slack having trouble.

const KEY = "checkout.daily.2026-11-15";
const SLACK = "slack:C0123ABCD";
const RETRY_AT = new Date("2026-11-16T08:05:00.000Z");
const ledgers = useTempLedgers();
const started: FakeSlack[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((f) => f.close()));
});

const post = (blocks: unknown[]): SlackPost => ({
  main: { text: "Checkout squad daily", blocks: blocks as SlackPost["main"]["blocks"] },
  metadata: { event_type: "insights_digest", event_payload: { key: KEY } },
  thread: [],
});
const fine = post([{ type: "section", text: { type: "mrkdwn", text: "hi" } }]);

/** One delivery of `message` through the fake Slack, recorded in a real ledger. */
async function deliver(message: SlackPost, failure?: FakeFailure) {
  const slack = await startFakeSlack();
  started.push(slack);
  if (failure) slack.failNext("chat.postMessage", failure, { times: 10 });
  const clients = createSlackClients({
    token: new Secret(FAKE_SLACK_TOKEN),
    apiUrl: slack.url,
    retries: 1,
    minRetryDelayMs: 5,
    logger: silentLogger(),
  });
  const destination = createSlackDestination({ clients, logger: silentLogger() });
  const store = ledgers.open();
  await store.recordSlot(aSlot({ key: KEY, destinations: [SLACK] }));
  const ledger = claimingLedger(store, { owner: "test", sendTimeoutMs: 60_000, take: "due" });
  const [result] = await deliverAll(
    KEY,
    [
      {
        id: SLACK,
        send: async () => ({ ref: (await destination.post("C0123ABCD", message)).ts }),
      },
    ],
    { ledger, logger: silentLogger(), retryAt: () => RETRY_AT },
  );
  const row = (await store.getSlot(KEY))?.deliveries.find((d) => d.destination === SLACK);
  return { result, row };
}

describe("the sender's retry verdict", () => {
  it.each<FakeFailure>(["invalid_auth", "token_revoked", "channel_not_found", "not_in_channel"])(
    "gives a delivery refused with %s up at once",
    async (failure) => {
      const { result, row } = await deliver(fine, failure);
      expect(result?.status).toBe("failed");
      expect(row).toMatchObject({ state: "failed", nextAttemptAt: null });
      expect(row?.lastError).toContain(failure);
    },
  );

  it("gives up a message Slack refuses as malformed (invalid_blocks): our bug, no retry mends it", async () => {
    const tooMany = Array.from({ length: 51 }, () => ({ type: "divider" }));
    const { result, row } = await deliver(post(tooMany));
    expect(result?.status).toBe("failed");
    expect(row).toMatchObject({ state: "failed", nextAttemptAt: null });
    expect(row?.lastError).toContain("invalid_blocks");
  });

  it("retries Slack having trouble (HTTP 500) on the schedule", async () => {
    const { result, row } = await deliver(fine, "http500");
    expect(result?.status).toBe("failed");
    expect(row).toMatchObject({ state: "failed", nextAttemptAt: RETRY_AT });
  });
});

describe("the SMTP sender's retry verdict", () => {
  const where = { endpoint: "smtp.example.com:587", secrets: [] };

  it("gives a refused login up (535), but retries a temporary one (454)", () => {
    expect(smtpError({ code: "EAUTH", responseCode: 535 }, where).retry).toBe(false);
    expect(smtpError({ code: "EAUTH", responseCode: 454 }, where).retry).toBe(true);
  });

  it("retries a server it cannot reach", () => {
    expect(smtpError({ code: "ECONNECTION", message: "ECONNREFUSED" }, where).retry).toBe(true);
  });
});
