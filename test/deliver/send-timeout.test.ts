import { afterEach, describe, expect, it } from "vitest";
import { claimingLedger } from "../../src/deliver/claiming-ledger.js";
import {
  type DeliveryJob,
  type DeliveryResult,
  deliverAll,
  type RetryAt,
  SendTimeoutError,
} from "../../src/deliver/deliver-all.js";
import { createSlackAlertDestination } from "../../src/destinations/slack/slack-alert-destination.js";
import { slackAlertJob } from "../../src/destinations/slack/slack-alert-job.js";
import { createSlackClients } from "../../src/destinations/slack/slack-client.js";
import { createSlackDestination } from "../../src/destinations/slack/slack-destination.js";
import { slackDigestJob } from "../../src/destinations/slack/slack-digest-job.js";
import { slackDestinationId } from "../../src/destinations/slack/slack-id.js";
import { silentLogger } from "../../src/logger.js";
import type { SlackPost } from "../../src/messages.js";
import { listJobs } from "../../src/scheduler/jobs.js";
import { slotDeadline, slotRetryAt } from "../../src/scheduler/retry-schedule.js";
import { Secret } from "../../src/secret.js";
import type { Ledger } from "../../src/state/ledger.js";
import { firstRetryAt } from "../../src/timetable/retry-delays.js";
import { aDigest, aTeam } from "../daemon/daemon-harness.js";
import {
  FAKE_SLACK_TOKEN,
  type FakeSlack,
  startFakeSlack,
} from "../fake-slack/fake-slack-server.js";
import { aSlot, useTempLedgers } from "../state/ledger-builders.js";

/**
 * `state.send_timeout` bounds a Slack attempt: one that takes longer is abandoned and recorded
 * as failed, outcome unknown; and the retry of an attempt whose post may have landed looks in
 * the channel only once send_timeout has passed since that attempt began, not after the
 * (shorter) retry delay: by then the post has landed or never will.
 */

const CHANNEL = "C0123ABCD";
const SLACK = slackDestinationId(CHANNEL);
const KEY = aSlot().key;
const MINUTE = 60_000;

const started: FakeSlack[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((f) => f.close()));
});
const ledgers = useTempLedgers();

function digest(): SlackPost {
  return {
    main: {
      text: "Checkout squad",
      blocks: [{ type: "section", text: { type: "mrkdwn", text: "93.8%" } }],
    },
    metadata: { event_type: "insights_digest", event_payload: { key: KEY } },
    thread: [{ text: "All projects", blocks: [] }],
  };
}

function alert(): SlackPost {
  return {
    main: { text: "Flaky tests are over 5% in checkout", blocks: [] },
    metadata: { event_type: "insights_alert", event_payload: { key: KEY } },
    thread: [],
  };
}

type Clients = ReturnType<typeof createSlackClients>;
const SINCE = new Date("2026-11-16T00:00:00Z");

const digestJob = (clients: Clients) =>
  slackDigestJob(
    KEY,
    { channel: CHANNEL, post: digest(), file: undefined },
    createSlackDestination({ clients }),
    { since: SINCE },
  );

// A fire's first post, which its key finds in the channel: like a digest, it is capped at
// send_timeout.
const alertJob = (clients: Clients) =>
  slackAlertJob(
    KEY,
    { channel: CHANNEL, post: alert(), threadKey: null, updates: [] },
    createSlackAlertDestination(clients),
    {
      logger: silentLogger(),
      since: SINCE,
      threadTs: async () => null,
    },
  );

// An escalation: a reply in the fire's thread, also shown in the channel. Like a fire's post,
// it is found by its key (in the thread), so it is capped at send_timeout too.
let fireTs: string | null = null;
const escalationJob = (clients: Clients) =>
  slackAlertJob(
    KEY,
    { channel: CHANNEL, post: alert(), threadKey: "fire-key", updates: [], broadcast: true },
    createSlackAlertDestination(clients),
    {
      logger: silentLogger(),
      since: SINCE,
      threadTs: async () => fireTs,
    },
  );

/**
 * A fake Slack, a ledger with the slot, and one delivery of a digest (or alert) to it, claimed
 * as the daemon does; retried as `run` and `alerts` retry, unless told otherwise.
 */
async function setup(
  job: (clients: Clients) => DeliveryJob = digestJob,
  retryAt: RetryAt = firstRetryAt(() => new Date()),
) {
  const slack = await startFakeSlack();
  started.push(slack);
  const ledger = ledgers.open();
  await ledger.recordSlot(aSlot({ destinations: [SLACK] }));
  const clients = createSlackClients({ token: new Secret(FAKE_SLACK_TOKEN), apiUrl: slack.url });
  const logger = silentLogger();
  const jobs = [job(clients)];
  // "due", as the daemon claims; "open", as `alerts` or `run` beside it do.
  const deliver = (sendTimeoutMs: number, take: "due" | "open" = "due") =>
    deliverAll(KEY, jobs, {
      ledger: claimingLedger(ledger, { owner: "test", sendTimeoutMs, take }),
      logger,
      retryAt,
    });
  return { slack, ledger, deliver, clients };
}

async function slackRow(ledger: Ledger) {
  return (await ledger.getSlot(KEY))?.deliveries.find((d) => d.destination === SLACK);
}

/** The attempt was abandoned at send_timeout, and the ledger says its outcome is unknown. */
async function expectAbandoned(result: DeliveryResult | undefined, ledger: Ledger) {
  expect(result).toMatchObject({ id: SLACK, status: "failed" });
  expect(result?.error).toBeInstanceOf(SendTimeoutError);
  expect(await slackRow(ledger)).toMatchObject({
    state: "failed",
    lastError: expect.stringMatching(/longer than state\.send_timeout.*may have been delivered/),
  });
}

/**
 * The send_timeout of the attempts Slack holds: long enough for the history lookup before the
 * post on a loaded machine (it took 285 ms there, and at 300 ms the attempt ended before its
 * post reached the held request the test waits for), short enough to keep the test quick.
 */
const HELD_TIMEOUT_MS = 2_000;

describe("a Slack attempt and state.send_timeout", () => {
  it("is abandoned at send_timeout while Slack holds the post, and recorded as failed, outcome unknown", async () => {
    const { slack, ledger, deliver } = await setup();
    const held = slack.holdNext("chat.postMessage", { effect: "on-release" });

    // The client's own request timeout (30 s) is far longer than the test may run.
    const [result] = await deliver(HELD_TIMEOUT_MS);

    await expectAbandoned(result, ledger);
    await held.arrived;
    expect(slack.posts).toEqual([]);
    // Not merely abandoned: the request in flight is aborted, so Slack sees it closed.
    await held.cut;
  });

  it("abandons an alert's post at send_timeout too, aborting the request Slack holds", async () => {
    const { slack, ledger, deliver } = await setup(alertJob);
    const held = slack.holdNext("chat.postMessage", { effect: "on-release" });

    // The client's own request timeout (30 s) is far longer than the test may run: only the
    // attempt's abort closes the held request before the test times out.
    const [result] = await deliver(HELD_TIMEOUT_MS);
    await held.arrived;
    await held.cut;
    await expectAbandoned(result, ledger);
    expect(slack.posts).toEqual([]);
  });

  it("abandons an alert's escalation in the fire's thread at send_timeout, and the next attempt finds it there instead of posting it again", async () => {
    const { slack, ledger, deliver, clients } = await setup(escalationJob);
    const fire = {
      ...alert(),
      metadata: { ...alert().metadata, event_payload: { key: "fire-key" } },
    };
    fireTs = (await createSlackAlertDestination(clients).postAlert(CHANNEL, fire, null)).ts;
    const replies = () => slack.posts.filter((p) => p.thread_ts === fireTs);
    // Slack posts the escalation at once; its answer never comes back.
    const held = slack.holdNext("chat.postMessage");

    // The client's own request timeout (30 s) is far longer than the test may run.
    const [result] = await deliver(HELD_TIMEOUT_MS);

    await held.cut;
    await expectAbandoned(result, ledger);
    expect(replies()).toHaveLength(1);

    // The next attempt looks in the fire's thread before it posts, and finds it there.
    const [again] = await deliver(10 * MINUTE, "open");

    expect(again?.status).toBe("recovered");
    expect(replies()).toHaveLength(1);
    expect(replies()[0]?.reply_broadcast).toBe(true);
    expect(await slackRow(ledger)).toMatchObject({ state: "sent", ref: replies()[0]?.ts });
    const lookups = slack.calls.filter((c) => c.method === "conversations.replies");
    expect(lookups.map((c) => c.params.ts)).toEqual([fireTs, fireTs]);
  });

  // Both retry schedules, the CLI's and the daemon's: each honours the floor the sender asks for.
  it.each([
    ["run and alerts", () => firstRetryAt(() => new Date())],
    [
      "the daemon",
      () => {
        const [daily] = listJobs([aTeam({ digests: [aDigest({ schedule: "0 9 * * *" })] })]);
        if (!daily) throw new Error("no job");
        return slotRetryAt(daily, new Date(), { clock: () => new Date(), delaysMs: [MINUTE] });
      },
    ],
  ])(
    "after a failure that may have posted (HTTP 500), is retried by %s no sooner than send_timeout after it began",
    async (_, retryAt) => {
      const { slack, ledger, deliver } = await setup(digestJob, retryAt());
      slack.failNext("chat.postMessage", "http500");
      const began = Date.now();

      const [result] = await deliver(10 * MINUTE);

      expect(result?.status).toBe("failed");
      const row = await slackRow(ledger);
      expect(row?.state).toBe("failed");
      // Not the retry delay's one minute: the lookup waits until the post has landed or never will.
      expect(row?.nextAttemptAt?.getTime()).toBeGreaterThanOrEqual(began + 10 * MINUTE);
    },
  );

  it("after a failure that may have posted, gives up rather than look for it after the slot's deadline", async () => {
    // The daemon's retry schedule for a daily digest that fired a minute ago: its deadline is
    // the next day's fire, and send_timeout here ends a minute after it.
    const [daily] = listJobs([aTeam({ digests: [aDigest({ schedule: "0 9 * * *" })] })]);
    if (!daily) throw new Error("no job");
    const fire = new Date(Date.now() - MINUTE);
    const deadline = slotDeadline(daily, fire);
    const retryAt = slotRetryAt(daily, fire, { clock: () => new Date(), delaysMs: [MINUTE] });
    const { slack, ledger, deliver } = await setup(digestJob, retryAt);
    slack.failNext("chat.postMessage", "http500");

    const [result] = await deliver(deadline.getTime() - Date.now() + MINUTE);

    expect(result?.status).toBe("failed");
    // Not a retry a minute past the deadline: a digest is never posted after its window closed.
    expect(await slackRow(ledger)).toMatchObject({ state: "failed", nextAttemptAt: null });
  });

  it("after Slack refused the post (rate-limited for longer than the retries may wait), is retried after the retry delay", async () => {
    const { slack, ledger, deliver } = await setup();
    slack.failNext("chat.postMessage", "ratelimited", { retryAfter: 3600 });
    const began = Date.now();

    const [result] = await deliver(10 * MINUTE);

    expect(result?.status).toBe("failed");
    const row = await slackRow(ledger);
    // Slack answered that it did not post: nothing can land later, the usual delay holds.
    expect(row?.nextAttemptAt?.getTime()).toBeLessThan(began + 10 * MINUTE);
    expect(row?.nextAttemptAt?.getTime()).toBeGreaterThanOrEqual(began + MINUTE);
  });

  it("stops all of an abandoned send's work at once: the library does not retry the lookup its deadline aborted", async () => {
    const { slack, clients } = await setup();
    // The look for an earlier post, which the library would retry on a failure.
    const held = slack.holdNext("conversations.history", { effect: "on-release" });
    const deadline = new AbortController();
    const job = digestJob(clients);
    const settled = (job.recover as NonNullable<DeliveryJob["recover"]>)({
      done: new Map(),
      record: async () => {},
      signal: deadline.signal,
    }).then(
      () => "resolved",
      () => "rejected",
    );
    await held.arrived;

    const abortedAt = Date.now();
    deadline.abort(new Error("abandoned at send_timeout"));

    // Not half a minute of retries of an aborted call, holding `run` from exiting meanwhile.
    expect(await settled).toBe("rejected");
    expect(Date.now() - abortedAt).toBeLessThan(1_000);
    await held.cut;
    expect(slack.calls.filter((c) => c.method === "conversations.history")).toHaveLength(1);
  });
});
