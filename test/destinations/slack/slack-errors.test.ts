import { inspect } from "node:util";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import {
  createSlackClient,
  createSlackClients,
} from "../../../src/destinations/slack/slack-client.js";
import { createSlackDestination } from "../../../src/destinations/slack/slack-destination.js";
import { toSlackDeliveryError } from "../../../src/destinations/slack/slack-errors.js";
import { SlackDeliveryError } from "../../../src/errors.js";
import type { SlackPost } from "../../../src/messages.js";
import { Secret } from "../../../src/secret.js";
import {
  FAKE_SLACK_TOKEN,
  type FakeSlack,
  type FakeSlackOptions,
  startFakeSlack,
} from "../../fake-slack/fake-slack-server.js";

/** Every Slack failure named in words with its fix, and never with the token in it. */

const started: FakeSlack[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((f) => f.close()));
});

/** Everything the adapter said or threw in this file, searched for the tokens at the end. */
const said: string[] = [];
const WRONG_TOKEN = "xoxb-1234-wrong-token-value";

afterAll(() => {
  for (const text of said) {
    expect(text).not.toContain(FAKE_SLACK_TOKEN);
    expect(text).not.toContain(WRONG_TOKEN);
    expect(text).not.toMatch(/Bearer/i);
  }
});

async function setup(
  options: FakeSlackOptions & { clientToken?: string; timeoutMs?: number } = {},
) {
  const slack = await startFakeSlack(options);
  started.push(slack);
  const logger = { warn: (obj: object, msg: string) => said.push(msg, JSON.stringify(obj)) };
  const clients = createSlackClients({
    token: new Secret(options.clientToken ?? FAKE_SLACK_TOKEN),
    apiUrl: slack.url,
    retries: 2,
    minRetryDelayMs: 5,
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    logger,
  });
  return { slack, destination: createSlackDestination({ clients, logger }) };
}

const post: SlackPost = {
  main: {
    text: "Checkout squad daily",
    blocks: [{ type: "section", text: { type: "mrkdwn", text: "hi" } }],
  },
  metadata: { event_type: "insights_digest", event_payload: { key: "checkout.daily.2026-11-15" } },
  thread: [],
};

/** The SlackDeliveryError a promise rejects with; records all its printable forms. */
async function failure(promise: Promise<unknown>): Promise<SlackDeliveryError> {
  const outcome = await promise.then(
    () => new Error("expected a SlackDeliveryError, but the call succeeded"),
    (error: unknown) => error,
  );
  if (!(outcome instanceof SlackDeliveryError)) throw outcome;
  said.push(
    outcome.message,
    String(outcome),
    inspect(outcome, { depth: 5 }),
    JSON.stringify(outcome.context),
  );
  return outcome;
}

describe("Slack errors in words", () => {
  it.each([
    [
      "not_in_channel",
      "not a member of C0123ABCD",
      "invite the bot to C0123ABCD (/invite @yourbot) or use the channel id (C…)",
    ],
    [
      "channel_not_found",
      "no channel C0123ABCD",
      "invite the bot to C0123ABCD (/invite @yourbot) or use the channel id (C…)",
    ],
    ["invalid_auth", "the Slack token was refused (invalid_auth)", "check SLACK_BOT_TOKEN"],
    ["token_revoked", "the Slack token was refused (token_revoked)", "check SLACK_BOT_TOKEN"],
    [
      "missing_scope",
      "lacks the chat:write scope",
      "add the chat:write scope to the Slack app (OAuth & Permissions) and reinstall it",
    ],
  ] as const)("%s from chat.postMessage says what to fix", async (slackError, what, fix) => {
    const { slack, destination } = await setup();
    slack.failNext("chat.postMessage", slackError);

    const e = await failure(destination.post("C0123ABCD", post));

    expect(e.slackError).toBe(slackError);
    expect(e.message).toContain(what);
    expect(e.message).toContain(fix);
    expect(e.context).toMatchObject({ method: "chat.postMessage", channel: "C0123ABCD" });
    expect(e.context).not.toHaveProperty("ts");
    expect(slack.posts).toEqual([]);
  });

  it("names the channel as configured when the bot is not in it", async () => {
    const { destination } = await setup();
    const e = await failure(destination.post("C0OUTSIDE", post));
    expect(e.message).toBe(
      "the bot is not a member of C0OUTSIDE (not_in_channel) — invite the bot to C0OUTSIDE (/invite @yourbot) or use the channel id (C…)",
    );
  });

  it("refuses a wrong token with invalid_auth and keeps the token out of every word", async () => {
    const { destination } = await setup({ clientToken: WRONG_TOKEN });
    const e = await failure(destination.post("C0123ABCD", post));
    expect(e.slackError).toBe("invalid_auth");
    expect(e.message).toContain("check SLACK_BOT_TOKEN");
  });

  it("names the scope Slack says is needed for a missing conversations.list scope", async () => {
    const { destination } = await setup({ scopes: ["chat:write"] });
    const e = await failure(destination.post("#qa-insights", post));
    expect(e.slackError).toBe("missing_scope");
    expect(e.message).toContain("add the channels:read scope to the Slack app");
  });

  it("calls a message Slack refuses a bug and passes on Slack's detail", async () => {
    const { destination } = await setup();
    const tooMany = Array.from({ length: 51 }, () => ({ type: "divider" }));
    const e = await failure(
      destination.post("C0123ABCD", { ...post, main: { text: "t", blocks: tooMany } }),
    );
    expect(e.slackError).toBe("invalid_blocks");
    expect(e.message).toContain("bug in insights-reporter");
    expect(e.message).toContain("no more than 50 items allowed [json-pointer:/blocks]");
  });

  it("refuses a second table block as Slack does", async () => {
    const { destination } = await setup();
    const table = { type: "table", rows: [[{ type: "raw_text", text: "x" }]] };
    const e = await failure(
      destination.post("C0123ABCD", { ...post, main: { text: "t", blocks: [table, table] } }),
    );
    expect(e.slackError).toBe("invalid_blocks");
    expect(e.message).toContain("only one table block");
  });
});

describe("server errors", () => {
  it("retries a lookup that Slack answered with HTTP 500, and finds the post once Slack recovers", async () => {
    const { slack, destination } = await setup();
    const posted = await destination.post("C0123ABCD", post);
    slack.failNext("conversations.history", "http500");

    expect(
      await destination.findPosted(
        "C0123ABCD",
        "checkout.daily.2026-11-15",
        new Date("2026-11-16T00:00:00Z"),
      ),
    ).toEqual(posted);
    expect(slack.calls.filter((c) => c.method === "conversations.history")).toHaveLength(2);
  });

  it("does not repeat the digest's post after an HTTP 500 (it may have landed) and says Slack is in trouble", async () => {
    const { slack, destination } = await setup();
    slack.failNext("chat.postMessage", "http500", { times: 10 });

    const e = await failure(destination.post("C0123ABCD", post));

    expect(slack.calls.map((c) => c.method)).toEqual(["chat.postMessage"]);
    expect(e.message).toContain("HTTP 500 — Slack may be having trouble");
    expect(e.context).toMatchObject({ status: 500, method: "chat.postMessage" });
  });

  it("does not repeat the digest's post when Slack's answer times out after the post was made", async () => {
    const { slack, destination } = await setup({ timeoutMs: 300 });
    const held = slack.holdNext("chat.postMessage"); // the post is made; the answer never comes

    const e = await failure(destination.post("C0123ABCD", post));
    held.release();

    expect(slack.calls.map((c) => c.method)).toEqual(["chat.postMessage"]);
    expect(slack.posts).toHaveLength(1);
    expect(e).toBeInstanceOf(SlackDeliveryError);
  });

  it("says Slack could not be reached when nothing listens at SLACK_API_URL", async () => {
    const { slack, destination } = await setup();
    await slack.close();
    const e = await failure(destination.post("C0123ABCD", post));
    expect(e.message).toMatch(
      /^could not reach Slack for chat\.postMessage .*check the network, and SLACK_API_URL/,
    );
  });
});

describe("the token in library text", () => {
  it("is scrubbed from any text copied out of a library error", () => {
    const leaky = new Error(`socket hang up (Authorization: Bearer ${FAKE_SLACK_TOKEN})`);
    const e = toSlackDeliveryError(
      leaky,
      { method: "chat.postMessage", channel: "C0123ABCD" },
      FAKE_SLACK_TOKEN,
    );
    expect(e.message).toBe(
      "Slack chat.postMessage failed: socket hang up (Authorization: Bearer [redacted])",
    );
  });

  it("is scrubbed from the library's own warnings before they reach our logger", async () => {
    const warnings: string[] = [];
    const client = createSlackClient({
      token: new Secret(FAKE_SLACK_TOKEN),
      apiUrl: "http://127.0.0.1:9/api/",
      logger: { warn: (obj, msg) => warnings.push(msg, JSON.stringify(obj)) },
    });
    // Reach the library's logger the way the library does; it is private by design.
    (client as unknown as { logger: { warn(...args: unknown[]): void } }).logger.warn(
      "token",
      FAKE_SLACK_TOKEN,
    );
    expect(warnings.join(" ")).toContain("token [redacted]");
    expect(warnings.join(" ")).not.toContain(FAKE_SLACK_TOKEN);
  });
});
