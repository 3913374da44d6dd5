import { afterEach, describe, expect, it } from "vitest";
import type { DeliveryProgress } from "../../../src/deliver/types.js";
import { createSlackAlertDestination } from "../../../src/destinations/slack/slack-alert-destination.js";
import {
  type SlackAlertMessage,
  slackAlertJob,
} from "../../../src/destinations/slack/slack-alert-job.js";
import { createSlackClients } from "../../../src/destinations/slack/slack-client.js";
import { SlackDeliveryError } from "../../../src/errors.js";
import { Secret } from "../../../src/secret.js";
import { recordingProgress } from "../../deliver/recording-progress.js";
import {
  FAKE_SLACK_TOKEN,
  type FakeSlack,
  startFakeSlack,
} from "../../fake-slack/fake-slack-server.js";

// A fire's chart goes into its post's thread as a part recorded once it is up: a failed upload
// fails the delivery, whose retry (or recovery after a kill) uploads only what did not go out.

const started: FakeSlack[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((f) => f.close()));
});

const KEY = "design.alert.flaky-rate.2026-11-18";
const CHART = {
  filename: "alert-p7-flaky-rate.png",
  content: Buffer.alloc(64, 7),
  contentType: "image/png",
};
/** The fire's chart as the deliver stage draws it (`images`): uploaded as CHART. */
const DRAWN = {
  name: "alert-p7-flaky-rate",
  title: "Flaky rate",
  alt: "Flaky rate by day",
  png: CHART.content,
  width: 720,
  height: 360,
  cssWidth: 360,
  cssHeight: 180,
};
const FIRE: SlackAlertMessage = {
  channel: "C0123ABCD",
  post: {
    main: { text: "fired", blocks: [{ type: "section", text: { type: "mrkdwn", text: "x" } }] },
    metadata: { event_type: "insights_alert", event_payload: { key: KEY } },
    thread: [],
  },
  threadKey: null,
  updates: [],
};

async function setup(findTs: () => string | null = () => null) {
  const slack = await startFakeSlack();
  started.push(slack);
  const clients = createSlackClients({
    token: new Secret(FAKE_SLACK_TOKEN),
    apiUrl: slack.url,
    minRetryDelayMs: 5,
  });
  const destination = createSlackAlertDestination(
    clients,
    { warn: () => {} },
    {
      findPosted: async () => {
        const ts = findTs();
        return ts ? { channel: FIRE.channel, ts } : null;
      },
    },
  );
  const job = slackAlertJob(KEY, FIRE, destination, {
    logger: { warn: () => {} } as never,
    since: new Date(0),
    threadTs: async () => null,
    images: { fireCharts: async () => [DRAWN] },
  });
  return { slack, job };
}

describe("an alert fire's chart in Slack", () => {
  it("is uploaded into the fire's thread after the post, each step a recorded part", async () => {
    const { slack, job } = await setup();
    const p = recordingProgress();
    const receipt = await job.send(p);
    expect(slack.posts).toHaveLength(1);
    expect(slack.uploads.map((u) => [u.filename, u.thread_ts])).toEqual([
      [CHART.filename, receipt.ref],
    ]);
    expect([...p.parts]).toEqual([
      ["post", receipt.ref],
      [`upload ${CHART.filename}`, null],
    ]);
  });

  it("failing, fails the send with the post recorded as a part, and the retry uploads it without posting again", async () => {
    let posted: string | null = null;
    const { slack, job } = await setup(() => posted);
    const p = recordingProgress();
    slack.failNext("files.completeUploadExternal", "channel_not_found");
    const failed = await job.send(p).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(SlackDeliveryError);
    const context = (failed as SlackDeliveryError).context;
    posted = String(context.ts);
    // The post is a part done: the retry (deliverAll recovers first) does not post it again.
    expect(context).toMatchObject({ posted: true, ts: slack.posts[0]?.ts });
    expect((failed as Error).message).toMatch(/still missing: upload of alert-p7-flaky-rate\.png$/);
    expect(slack.uploads).toHaveLength(0);
    expect([...p.parts.keys()]).toEqual(["post"]);

    // The retry looks first: it finds the post and finishes the upload.
    const found = await job.recover?.(p);
    expect(found).toEqual({ ref: posted });
    expect(slack.posts).toHaveLength(1);
    expect(slack.uploads.map((u) => [u.filename, u.thread_ts])).toEqual([[CHART.filename, posted]]);
    // And once more: everything is recorded, nothing goes out again.
    await job.recover?.(p);
    expect(slack.uploads).toHaveLength(1);
  });

  it("taken by Slack just before a kill, is found in the thread by a recovery, not uploaded again", async () => {
    let posted: string | null = null;
    const { slack, job } = await setup(() => posted);
    // The process dies once Slack has the chart, before its part is recorded: the ledger
    // keeps the post and nothing after it.
    const ledger = recordingProgress();
    const killed: DeliveryProgress = {
      done: ledger.done,
      async record(part, ref) {
        if (part.startsWith("upload ")) throw new Error("killed");
        await ledger.record(part, ref);
      },
    };
    await expect(job.send(killed)).rejects.toThrow("killed");
    expect(slack.uploads.map((u) => u.filename)).toEqual([CHART.filename]);
    expect([...ledger.parts.keys()]).toEqual(["post"]);
    posted = String(ledger.parts.get("post"));

    const found = await job.recover?.(ledger);
    expect(found).toEqual({ ref: posted });
    expect(slack.posts).toHaveLength(1);
    expect(slack.uploads).toHaveLength(1);
    expect([...ledger.parts]).toEqual([
      ["post", posted],
      [`upload ${CHART.filename}`, null],
    ]);
  });

  it("whose thread cannot be read by a recovery, is not uploaded blind, and the post stands", async () => {
    let posted: string | null = null;
    const { slack, job } = await setup(() => posted);
    const ledger = recordingProgress();
    slack.failNext("files.completeUploadExternal", "channel_not_found");
    await expect(job.send(ledger)).rejects.toBeInstanceOf(SlackDeliveryError);
    posted = String(ledger.parts.get("post"));

    slack.failNext("conversations.replies", "channel_not_found");
    const failed = await job.recover?.(ledger).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(SlackDeliveryError);
    expect((failed as SlackDeliveryError).context).toMatchObject({
      posted: true,
      ts: posted,
      failedStep: "lookup of the thread's files",
    });
    expect(slack.uploads).toHaveLength(0);
    expect(slack.posts).toHaveLength(1);
  });
});
