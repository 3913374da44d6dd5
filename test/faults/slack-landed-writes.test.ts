import { afterEach, describe, expect, it } from "vitest";
import { claimingLedger } from "../../src/deliver/claiming-ledger.js";
import {
  type DeliveryJob,
  type DeliveryResult,
  deliverAll,
} from "../../src/deliver/deliver-all.js";
import { createSlackAlertDestination } from "../../src/destinations/slack/slack-alert-destination.js";
import { slackAlertJob } from "../../src/destinations/slack/slack-alert-job.js";
import { createSlackClients } from "../../src/destinations/slack/slack-client.js";
import { createSlackDestination } from "../../src/destinations/slack/slack-destination.js";
import { slackDigestJob } from "../../src/destinations/slack/slack-digest-job.js";
import { slackDestinationId } from "../../src/destinations/slack/slack-id.js";
import { silentLogger } from "../../src/logger.js";
import type { SlackPost } from "../../src/messages.js";
import { Secret } from "../../src/secret.js";
import { firstRetryAt } from "../../src/timetable/retry-delays.js";
import {
  FAKE_SLACK_TOKEN,
  type FakeSlack,
  startFakeSlack,
} from "../fake-slack/fake-slack-server.js";
import {
  type LandedFault,
  type LandingFaultProxy,
  type ProxiedCall,
  startLandingFaultProxy,
} from "../fake-slack/landing-fault-proxy.js";
import { aSlot, useTempLedgers } from "../state/ledger-builders.js";

/**
 * Every Slack write landing in Slack while its answer is lost (an HTTP 500, a reset
 * connection), one write per run: the reporter, through a proxy that lets the call land and
 * then fails it, retries what it must, and the channel ends with exactly one of each part —
 * the post, its thread reply, the workbook, the chart, the edit of a fire's first message.
 */

const CHANNEL = "C0123ABCD";
const SLACK = slackDestinationId(CHANNEL);
const KEY = aSlot().key;
const SINCE = new Date("2026-11-14T00:00:00Z");
const WORKBOOK = "insights-checkout-2026-11-15.xlsx";
const CHART = "trend-flaky-rate.png";

const started: Array<FakeSlack | LandingFaultProxy> = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.close()));
});
const ledgers = useTempLedgers();

const digest: SlackPost = {
  main: {
    text: "Checkout squad",
    blocks: [{ type: "section", text: { type: "mrkdwn", text: "x" } }],
  },
  metadata: { event_type: "insights_digest", event_payload: { key: KEY } },
  thread: [{ text: "All projects", blocks: [] }],
};
const file = (filename: string) => ({
  filename,
  content: Buffer.from(`bytes of ${filename}`),
  contentType: "application/octet-stream",
});

async function setup() {
  const slack = await startFakeSlack();
  const proxy = await startLandingFaultProxy(slack.url);
  started.push(proxy, slack);
  const clients = createSlackClients({
    token: new Secret(FAKE_SLACK_TOKEN),
    apiUrl: proxy.url,
    minRetryDelayMs: 5,
  });
  const ledger = ledgers.open();
  /** Attempts the delivery as `run` does, again after each failure, at most `times` times. */
  async function deliverUntilSent(key: string, job: DeliveryJob, times = 3) {
    const results: DeliveryResult[] = [];
    for (let i = 0; i < times; i++) {
      const [result] = await deliverAll(key, [job], {
        ledger: claimingLedger(ledger, { owner: "test", sendTimeoutMs: 60_000, take: "open" }),
        logger: silentLogger(),
        retryAt: firstRetryAt(() => new Date()),
      });
      if (!result) throw new Error("no result");
      results.push(result);
      if (result.status !== "failed") break;
    }
    const row = (await ledger.getSlot(key))?.deliveries.find((d) => d.destination === SLACK);
    return { results, row };
  }
  return { slack, proxy, clients, ledger, deliverUntilSent };
}

/** The digest's writes, each picked out of the proxied calls. */
const DIGEST_WRITES: Array<[string, (call: ProxiedCall) => boolean]> = [
  ["the top post", (c) => c.method === "chat.postMessage" && !c.params.has("thread_ts")],
  ["the thread reply", (c) => c.method === "chat.postMessage" && c.params.has("thread_ts")],
  [
    "the workbook's files.getUploadURLExternal",
    (c) => c.method === "files.getUploadURLExternal" && c.params.get("filename") === WORKBOOK,
  ],
  ["the chart's upload to its URL", (c) => c.method === "upload"],
  [
    "the workbook's files.completeUploadExternal",
    (c) =>
      c.method === "files.completeUploadExternal" &&
      c.params.get("files")?.includes(WORKBOOK) === true,
  ],
];
const FAULTS: LandedFault[] = ["http500", "reset"];

describe("a digest whose Slack write lands but whose answer is lost", () => {
  for (const [write, matches] of DIGEST_WRITES) {
    for (const fault of FAULTS) {
      it(`ends with one post, one reply, one workbook and one chart in the channel when ${write} is answered ${fault === "reset" ? "by a reset" : "with a 500"}`, async () => {
        const { slack, proxy, clients, ledger, deliverUntilSent } = await setup();
        await ledger.recordSlot(aSlot({ destinations: [SLACK] }));
        const job = slackDigestJob(
          KEY,
          { channel: CHANNEL, post: digest, file: file(WORKBOOK), charts: [file(CHART)] },
          createSlackDestination({ clients }),
          { since: SINCE },
        );
        const faulted = proxy.failAfterLanding(matches, fault);

        const { results, row } = await deliverUntilSent(KEY, job);
        await faulted;

        expect(results.at(-1)?.status, String(results.at(-1)?.error)).toMatch(/^(sent|recovered)$/);
        expect(row?.state).toBe("sent");
        const [post, ...others] = slack.posts.filter((p) => p.thread_ts === null);
        expect(others).toEqual([]);
        expect(slack.posts.filter((p) => p.thread_ts === post?.ts)).toHaveLength(1);
        const names = slack.uploads.map((u) => [u.filename, u.thread_ts]);
        expect(names.sort()).toEqual(
          [
            [WORKBOOK, post?.ts],
            [CHART, post?.ts],
          ].sort(),
        );
      });
    }
  }
});

describe("an alert whose edit of the fire's first message lands but whose answer is lost", () => {
  for (const fault of FAULTS) {
    it(`edits the first message once and replies once when chat.update is answered ${fault === "reset" ? "by a reset" : "with a 500"}`, async () => {
      const { slack, proxy, clients, ledger, deliverUntilSent } = await setup();
      const alerts = createSlackAlertDestination(clients);
      const fire = await alerts.postAlert(CHANNEL, { ...digest, thread: [] }, null);
      const key = "checkout.alert.flaky-rate.2026-11-16";
      await ledger.recordSlot(aSlot({ key, kind: "alert", destinations: [SLACK] }));
      const job = slackAlertJob(
        key,
        {
          channel: CHANNEL,
          post: {
            main: { text: "escalated", blocks: [] },
            metadata: { event_type: "insights_alert", event_payload: { key } },
            thread: [],
          },
          threadKey: "fire",
          updates: [{ rootKey: "fire", message: { text: "Still firing (critical)", blocks: [] } }],
          broadcast: true,
        },
        alerts,
        {
          logger: silentLogger(),
          since: SINCE,
          threadTs: async () => fire.ts,
        },
      );
      const faulted = proxy.failAfterLanding((c) => c.method === "chat.update", fault);

      const { row } = await deliverUntilSent(key, job);
      await faulted;

      expect(row?.state).toBe("sent");
      const first = slack.posts.find((p) => p.ts === fire.ts);
      expect(first?.edits).toBe(1);
      expect(first?.text).toBe("Still firing (critical)");
      expect(slack.posts.filter((p) => p.thread_ts === fire.ts)).toHaveLength(1);
    });
  }
});

describe("a digest whose chart upload fails after its post landed", () => {
  it("is recorded as failed, naming the chart as missing, until a later attempt uploads only the chart", async () => {
    const { slack, proxy, clients, ledger, deliverUntilSent } = await setup();
    await ledger.recordSlot(aSlot({ destinations: [SLACK] }));
    const job = slackDigestJob(
      KEY,
      { channel: CHANNEL, post: digest, file: file(WORKBOOK), charts: [file(CHART)] },
      createSlackDestination({ clients }),
      { since: SINCE },
    );
    const chartUploads = (c: ProxiedCall) =>
      c.method === "files.getUploadURLExternal" && c.params.get("filename") === CHART;
    const outage = proxy.refuse(chartUploads, "http500");

    const first = await deliverUntilSent(KEY, job, 1);

    expect(first.results.map((r) => r.status)).toEqual(["failed"]);
    expect(first.row).toMatchObject({
      state: "failed",
      nextAttemptAt: expect.any(Date),
      lastError: expect.stringMatching(/still missing: upload of trend-flaky-rate\.png$/),
    });
    expect(slack.uploads.map((u) => u.filename)).toEqual([WORKBOOK]);

    outage();
    const second = await deliverUntilSent(KEY, job, 1);

    expect(second.row?.state).toBe("sent");
    const [post, ...others] = slack.posts.filter((p) => p.thread_ts === null);
    expect(others).toEqual([]);
    expect(slack.posts.filter((p) => p.thread_ts === post?.ts)).toHaveLength(1);
    expect(slack.uploads.map((u) => [u.filename, u.thread_ts])).toEqual([
      [WORKBOOK, post?.ts],
      [CHART, post?.ts],
    ]);
  });
});
