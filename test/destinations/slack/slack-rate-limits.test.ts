import { describe, expect, it, type TestContext } from "vitest";
import {
  createSlackClients,
  type SlackClientOptions,
} from "../../../src/destinations/slack/slack-client.js";
import { createSlackDestination } from "../../../src/destinations/slack/slack-destination.js";
import { SlackDeliveryError } from "../../../src/errors.js";
import type { SlackPost } from "../../../src/messages.js";
import { Secret } from "../../../src/secret.js";
import {
  FAKE_SLACK_TOKEN,
  type FakeSlack,
  startFakeSlack,
} from "../../fake-slack/fake-slack-server.js";

// Rate limits: Retry-After honoured, retries bounded in count and in time. The waits go to a
// clock of the test's own, which advances by what was slept: nothing sleeps for real.

/** The tests run concurrently, so each closes its own fake through its own context. */
async function setup(
  context: TestContext,
  retry: Pick<SlackClientOptions, "retries" | "maxRetryTimeMs">,
) {
  const slack: FakeSlack = await startFakeSlack();
  context.onTestFinished(() => slack.close());
  const warnings: Array<{ obj: object; msg: string }> = [];
  const logger = { warn: (obj: object, msg: string) => warnings.push({ obj, msg }) };
  const slept: number[] = [];
  let clock = 1_000_000;
  const clients = createSlackClients({
    token: new Secret(FAKE_SLACK_TOKEN),
    apiUrl: slack.url,
    minRetryDelayMs: 5,
    logger,
    sleep: async (ms) => {
      slept.push(ms);
      clock += ms;
    },
    now: () => clock,
    ...retry,
  });
  return { slack, warnings, slept, destination: createSlackDestination({ clients }) };
}

const post: SlackPost = {
  main: { text: "Checkout squad daily", blocks: [{ type: "divider" }] },
  metadata: { event_type: "insights_digest", event_payload: { key: "k" } },
  thread: [],
};

async function failure(promise: Promise<unknown>): Promise<SlackDeliveryError> {
  const outcome = await promise.then(
    () => new Error("expected a SlackDeliveryError, but the call succeeded"),
    (error: unknown) => error,
  );
  if (!(outcome instanceof SlackDeliveryError)) throw outcome;
  return outcome;
}

describe.concurrent("rate limits", () => {
  it("waits out Retry-After, then posts once", async (context) => {
    const { slack, warnings, slept, destination } = await setup(context, {});
    slack.failNext("chat.postMessage", "ratelimited", { retryAfter: 1 });

    const posted = await destination.post("C0123ABCD", post);

    expect(slack.posts).toEqual([expect.objectContaining({ ts: posted.ts })]);
    expect(slack.calls).toHaveLength(2);
    expect(slept).toEqual([1000]);
    expect(warnings).toContainEqual({
      obj: { method: "chat.postMessage", retryAfterSeconds: 1 },
      msg: expect.stringContaining("rate-limited"),
    });
  });

  it("says so once per rate limit: ours, not also the Slack library's own warning", async (context) => {
    const { slack, warnings, destination } = await setup(context, {});
    slack.failNext("chat.postMessage", "ratelimited", { retryAfter: 1 });

    await destination.post("C0123ABCD", post);

    expect(warnings.map((w) => w.msg)).toEqual([
      "Slack rate-limited a call; waiting as its Retry-After asks before retrying",
    ]);
  });

  it("gives up after the configured number of retries and says it was rate-limited", async (context) => {
    const { slack, slept, destination } = await setup(context, { retries: 1 });
    slack.failNext("chat.postMessage", "ratelimited", { retryAfter: 1, times: 5 });

    const e = await failure(destination.post("C0123ABCD", post));

    expect(slack.calls).toHaveLength(2);
    expect(slept).toEqual([1000]);
    expect(e.slackError).toBe("ratelimited");
    expect(e.message).toContain(
      "Slack kept rate-limiting chat.postMessage (last Retry-After: 1 s), longer than its retries may wait",
    );
    expect(e.context).toMatchObject({ retryAfterSeconds: 1 });
    expect(slack.posts).toEqual([]);
  });

  it("gives up once the retry time budget is spent, whatever retries are left", async (context) => {
    const { slack, slept, destination } = await setup(context, {
      retries: 5,
      maxRetryTimeMs: 2_500,
    });
    slack.failNext("chat.postMessage", "ratelimited", { retryAfter: 1, times: 5 });

    const e = await failure(destination.post("C0123ABCD", post));

    // Two waits of 1 s fit in 2.5 s; a third would not.
    expect(slack.calls).toHaveLength(3);
    expect(slept).toEqual([1000, 1000]);
    expect(e.slackError).toBe("ratelimited");
  });

  it("fails at once, naming the wait, when a Retry-After is longer than the whole budget", async (context) => {
    const { slack, warnings, destination } = await setup(context, {});
    slack.failNext("chat.postMessage", "ratelimited", { retryAfter: 600 });

    const e = await failure(destination.post("C0123ABCD", post));

    expect(slack.calls).toHaveLength(1);
    expect(e.slackError).toBe("ratelimited");
    expect(e.context).toMatchObject({ retryAfterSeconds: 600 });
    expect(e.message).toContain("(last Retry-After: 600 s), longer than its retries may wait");
    expect(warnings.some((w) => w.msg.includes("waiting as its Retry-After asks"))).toBe(false);
  });
});
