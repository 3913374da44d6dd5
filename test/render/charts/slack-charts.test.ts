import { afterEach, describe, expect, it } from "vitest";
import { createSlackClients } from "../../../src/destinations/slack/slack-client.js";
import { createSlackDestination } from "../../../src/destinations/slack/slack-destination.js";
import type { Attachment, SlackPost } from "../../../src/messages.js";
import { Secret } from "../../../src/secret.js";
import { recordingProgress } from "../../deliver/recording-progress.js";
import {
  FAKE_SLACK_TOKEN,
  type FakeSlack,
  startFakeSlack,
} from "../../fake-slack/fake-slack-server.js";

// A digest's charts go into its Slack thread after the workbook, each upload a part recorded
// as done, so a retry after a failure (or a kill) uploads only what did not go out.

const started: FakeSlack[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((f) => f.close()));
});

async function setup() {
  const slack = await startFakeSlack();
  started.push(slack);
  const clients = createSlackClients({
    token: new Secret(FAKE_SLACK_TOKEN),
    apiUrl: slack.url,
    minRetryDelayMs: 5,
  });
  const logger = { warn: () => {} };
  return { slack, destination: createSlackDestination({ clients, logger }) };
}

const POST: SlackPost = {
  main: {
    text: "Checkout squad · weekly",
    blocks: [{ type: "section", text: { type: "mrkdwn", text: "hi" } }],
  },
  metadata: { event_type: "insights_digest", event_payload: { key: "checkout.weekly.2026-11-09" } },
  thread: [],
};
const png = (name: string, byte: number): Attachment => ({
  filename: `${name}.png`,
  content: Buffer.alloc(64, byte),
  contentType: "image/png",
});
const CHARTS = [png("team-flaky-rate", 1), png("team-run-pass-rate", 2)];
const WORKBOOK: Attachment = {
  filename: "book.xlsx",
  content: Buffer.alloc(32, 9),
  contentType: "x",
};

describe("a digest's charts in Slack", () => {
  it("are uploaded into the digest's thread after the workbook, each recorded as a part", async () => {
    const { slack, destination } = await setup();
    const p = recordingProgress();
    const posted = await destination.post("C0123ABCD", POST, WORKBOOK, p, CHARTS);
    expect(slack.uploads.map((u) => u.filename)).toEqual([
      "book.xlsx",
      "team-flaky-rate.png",
      "team-run-pass-rate.png",
    ]);
    for (const upload of slack.uploads) expect(upload.thread_ts).toBe(posted.ts);
    expect(slack.uploads[1]?.bytes.equals(CHARTS[0]?.content ?? Buffer.alloc(0))).toBe(true);
    expect([...p.parts.keys()]).toEqual([
      "post",
      "upload",
      "upload team-flaky-rate.png",
      "upload team-run-pass-rate.png",
    ]);
  });

  it("are not uploaded again by a retry: only the part that failed goes out", async () => {
    const { slack, destination } = await setup();
    const p = recordingProgress();
    // The second chart's upload fails (its completion step refused).
    slack.failNext("files.completeUploadExternal", "channel_not_found", { after: 2 });
    await expect(destination.post("C0123ABCD", POST, WORKBOOK, p, CHARTS)).rejects.toThrow(
      /upload of team-run-pass-rate\.png failed/,
    );
    expect([...p.parts.keys()]).toEqual(["post", "upload", "upload team-flaky-rate.png"]);

    await destination.post("C0123ABCD", POST, WORKBOOK, p, CHARTS);
    expect(slack.posts).toHaveLength(1);
    expect(slack.uploads.map((u) => u.filename)).toEqual([
      "book.xlsx",
      "team-flaky-rate.png",
      "team-run-pass-rate.png",
    ]);
  });
});

describe("a digest's Slack message", () => {
  it("carries the team's chart alone into its thread: one upload, not one per subject", async () => {
    const { SLACK } = await import("../../../src/destinations/slack/slack-module.js");
    const { checkoutReport } = await import("../report-fixture.js");
    const chart = (name: string) => ({
      name,
      title: name,
      alt: name,
      png: Buffer.alloc(8, 1),
      width: 2,
      height: 2,
      cssWidth: 1,
      cssHeight: 1,
    });
    const message = SLACK.renderDigest(
      { channel: "C0123ABCD", attachXlsx: false },
      {
        key: "checkout.weekly.2026-11-09",
        report: checkoutReport(),
        owners: {},
        workbook: undefined,
        charts: [chart("team-rates"), chart("project-1-rates"), chart("project-2-rates")],
        workbookWhere: "the workbook",
      },
    );
    expect((message.charts ?? []).map((c) => c.filename)).toEqual(["team-rates.png"]);
  });
});
