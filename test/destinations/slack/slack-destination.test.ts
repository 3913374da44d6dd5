import { afterEach, describe, expect, it } from "vitest";
import type { DeliveryProgress } from "../../../src/deliver/types.js";
import { createSlackAlertDestination } from "../../../src/destinations/slack/slack-alert-destination.js";
import {
  createSlackClient,
  createSlackClients,
} from "../../../src/destinations/slack/slack-client.js";
import { createSlackDestination } from "../../../src/destinations/slack/slack-destination.js";
import { slackOnFirstUse } from "../../../src/destinations/slack/slack-on-first-use.js";
import { SlackDeliveryError } from "../../../src/errors.js";
import type { SlackPost } from "../../../src/messages.js";
import { Secret } from "../../../src/secret.js";
import { captureLogs } from "../../daemon/daemon-harness.js";
import {
  FAKE_SLACK_TOKEN,
  type FakeChannel,
  type FakeSlack,
  startFakeSlack,
} from "../../fake-slack/fake-slack-server.js";

const started: FakeSlack[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((f) => f.close()));
});

interface Warning {
  obj: object;
  msg: string;
}

/** A fake Slack and an adapter over a real WebClient pointed at it. */
async function setup(options: { channels?: FakeChannel[]; scopes?: string[] } = {}) {
  const slack = await startFakeSlack(options);
  started.push(slack);
  const warnings: Warning[] = [];
  const logger = { warn: (obj: object, msg: string) => warnings.push({ obj, msg }) };
  // Slack's pace (one post a second per channel) on a clock of the test's own, moved by what
  // was slept: the busy channel below is 451 posts, which would take minutes for real.
  let clock = Date.now();
  const clients = createSlackClients({
    token: new Secret(FAKE_SLACK_TOKEN),
    apiUrl: slack.url,
    minRetryDelayMs: 5,
    now: () => clock,
    sleep: async (ms) => {
      clock += ms;
    },
  });
  return { slack, warnings, clients, destination: createSlackDestination({ clients, logger }) };
}

function digest(key: string, thread: string[] = []): SlackPost {
  return {
    main: {
      text: `Checkout squad · ${key}`,
      blocks: [
        { type: "header", text: { type: "plain_text", text: "Checkout squad" } },
        { type: "section", text: { type: "mrkdwn", text: "*Run pass rate* 93.8%" } },
      ],
    },
    metadata: {
      event_type: "insights_digest",
      event_payload: {
        key,
        team: "checkout",
        digest: "daily",
        period_start: "2026-11-15",
        period_end: "2026-11-15",
      },
    },
    thread: thread.map((text) => ({
      text,
      blocks: [{ type: "section", text: { type: "mrkdwn", text } }],
    })),
  };
}

const workbook = {
  filename: "checkout-daily.xlsx",
  content: Buffer.from("PK\u0003\u0004 not really a workbook \u0000\u00ff", "latin1"),
  contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
};

describe("posting a digest", () => {
  it("posts the message with blocks and metadata, then each reply in its thread", async () => {
    const { slack, destination } = await setup();
    const post = digest("checkout.daily.2026-11-15", ["All 12 projects", "Flakiest tests"]);

    const posted = await destination.post("C0123ABCD", post);

    expect(slack.posts).toHaveLength(3);
    const [main, ...replies] = slack.posts;
    expect(posted).toEqual({ channel: "C0123ABCD", ts: main?.ts });
    expect(main).toMatchObject({ channel: "C0123ABCD", text: post.main.text, thread_ts: null });
    expect(main?.blocks).toEqual(post.main.blocks);
    expect(main?.metadata).toEqual(post.metadata);
    // Each reply is named by its slot and part, so a restart can find it in the thread.
    const part = (n: number) => ({
      event_type: "insights_digest_part",
      event_payload: { key: "checkout.daily.2026-11-15", part: `thread ${n}` },
    });
    expect(replies.map((r) => [r.text, r.thread_ts, r.metadata])).toEqual([
      ["All 12 projects", main?.ts, part(1)],
      ["Flakiest tests", main?.ts, part(2)],
    ]);
    const sent = slack.calls.filter((c) => c.method === "chat.postMessage");
    expect(sent.every((c) => c.params.unfurl_links === "false")).toBe(true);
  });

  it("uploads the file into the message's thread with its bytes intact", async () => {
    const { slack, destination } = await setup();

    const posted = await destination.post(
      "C0123ABCD",
      digest("checkout.daily.2026-11-16"),
      workbook,
    );

    expect(slack.uploads).toHaveLength(1);
    const [upload] = slack.uploads;
    expect(upload).toMatchObject({
      channel: "C0123ABCD",
      thread_ts: posted.ts,
      filename: workbook.filename,
    });
    expect(upload?.bytes.equals(workbook.content)).toBe(true);
    expect(slack.calls.map((c) => c.method)).toEqual([
      "chat.postMessage",
      "files.getUploadURLExternal",
      "upload",
      "files.completeUploadExternal",
    ]);
  });
});

describe("a failure after the main message went out", () => {
  it("throws a SlackDeliveryError carrying the main ts when a reply fails", async () => {
    const { slack, destination } = await setup();
    slack.failNext("chat.postMessage", "channel_not_found", { after: 2 });

    const error = await failure(destination.post("C0123ABCD", digest("k-reply", ["r1", "r2"])));

    expect(slack.posts.map((p) => p.text)).toEqual([expect.stringContaining("k-reply"), "r1"]);
    expect(error.context).toMatchObject({
      ts: slack.posts[0]?.ts,
      posted: true,
      failedStep: "thread reply 2 of 2",
    });
    expect(error.message).toContain(`posted to C0123ABCD (ts ${slack.posts[0]?.ts})`);
  });

  it("throws a SlackDeliveryError carrying the main ts when the upload fails, naming the scope", async () => {
    const { slack, destination } = await setup();
    slack.failNext("files.getUploadURLExternal", "missing_scope");

    const e = await failure(destination.post("C0123ABCD", digest("k-upload"), workbook));

    expect(e.context).toMatchObject({
      ts: slack.posts[0]?.ts,
      posted: true,
      needed: "files:write",
    });
    expect(e.slackError).toBe("missing_scope");
    expect(e.message).toContain("add the files:write scope to the Slack app");
    expect(slack.posts).toHaveLength(1);
    expect(slack.uploads).toEqual([]);
  });
});

function chart(filename: string) {
  return {
    filename,
    content: Buffer.from(`\u0089PNG ${filename}`, "latin1"),
    contentType: "image/png",
  };
}

// The lookups below look back from here; the fake's messages are all newer.
const SINCE = new Date("2026-11-16T00:00:00Z");

describe("finding an earlier post after a crash", () => {
  it("finds a post by the key in its metadata and returns null for another key", async () => {
    const { slack, destination } = await setup();
    const posted = await destination.post("C0123ABCD", digest("checkout.daily.2026-11-15"));
    await destination.post("C0123ABCD", digest("checkout.daily.2026-11-16"));

    expect(await destination.findPosted("C0123ABCD", "checkout.daily.2026-11-15", SINCE)).toEqual(
      posted,
    );
    expect(
      await destination.findPosted("C0123ABCD", "checkout.daily.2026-11-17", SINCE),
    ).toBeNull();
    const lookups = slack.calls.filter((c) => c.method === "conversations.history");
    expect(lookups.map((c) => [c.params.include_all_metadata, c.params.limit])).toEqual([
      ["true", "200"],
      ["true", "200"],
    ]);
    // From ten minutes before `since`, for clocks that disagree a little.
    expect(lookups[0]?.params.oldest).toBe(((SINCE.getTime() - 600_000) / 1000).toFixed(6));
  });

  it("finds a reply of a key in the thread it names, and in the channel once that thread is gone", async () => {
    const { slack, destination, clients } = await setup();
    const alerts = createSlackAlertDestination(clients);
    const alert = (key: string) => ({
      main: { text: `Flaky tests · ${key}`, blocks: [] },
      metadata: { event_type: "insights_alert" as const, event_payload: { key } },
      thread: [],
    });
    const fire = await alerts.postAlert("C0123ABCD", alert("fire"), null);
    const reply = await alerts.postAlert("C0123ABCD", alert("reply"), fire.ts);
    expect(reply.threaded).toBe(true);

    expect(await destination.findPosted("C0123ABCD", "reply", SINCE, undefined, fire.ts)).toEqual({
      channel: "C0123ABCD",
      ts: reply.ts,
    });
    // The thread's first message is the fire's own, never taken for the reply's.
    expect(await destination.findPosted("C0123ABCD", "fire", SINCE, undefined, fire.ts)).toBeNull();
    // A reply to a thread Slack no longer has went out as a new post (postAlert, on
    // message_not_found): conversations.replies says thread_not_found, the channel has it.
    const anew = await alerts.postAlert("C0123ABCD", alert("orphan"), null);
    expect(
      await destination.findPosted("C0123ABCD", "orphan", SINCE, undefined, "1.000001"),
    ).toEqual({ channel: "C0123ABCD", ts: anew.ts });
    expect(slack.calls.filter((c) => c.method === "conversations.replies")).toHaveLength(3);
  });

  it("pages through a busy channel to find a post that many others followed", async () => {
    const { slack, destination } = await setup();
    const posted = await destination.post("C0123ABCD", digest("checkout.daily.2026-11-15"));
    for (let i = 0; i < 450; i++) {
      await destination.post("C0123ABCD", digest(`other.daily.${i}`));
    }
    expect(await destination.findPosted("C0123ABCD", "checkout.daily.2026-11-15", SINCE)).toEqual(
      posted,
    );
    const lookups = slack.calls.filter((c) => c.method === "conversations.history");
    expect(lookups).toHaveLength(3);
  });

  it("without channels:history warns once per adapter that a restart may post twice, and returns null", async () => {
    const { warnings, destination } = await setup({ scopes: ["chat:write", "files:write"] });
    await destination.post("C0123ABCD", digest("k1"));

    expect(await destination.findPosted("C0123ABCD", "k1", SINCE)).toBeNull();
    expect(await destination.findPosted("C0ALERTS", "k2", SINCE)).toBeNull();

    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.msg).toMatch(
      /lacks the channels:history scope.*may post it twice.*add channels:history/,
    );
  });

  it("without channels:history, an app that sends a digest and an alert warns once, not once per destination", async () => {
    const slack = await startFakeSlack({ scopes: ["chat:write", "files:write"] });
    started.push(slack);
    const { lines, logger } = captureLogs();
    // Both destinations as the reporter builds them: over one set of clients for the one app.
    const app = slackOnFirstUse(
      { token: new Secret(FAKE_SLACK_TOKEN), apiUrl: slack.url, appToken: null },
      logger,
    );
    if (!app) throw new Error("no Slack clients");
    await app.digest.post("C0123ABCD", digest("k1"));
    expect(await app.digest.findPosted("C0123ABCD", "k1", SINCE)).toBeNull();
    const fire = await app.alert.postAlert("C0ALERTS", digest("k2"), null);
    expect(await app.alert.filesInThread("C0ALERTS", fire.ts)).toEqual(new Set());

    const refused = slack.calls.filter((c) => c.method.startsWith("conversations."));
    expect(refused.map((c) => c.method)).toEqual([
      "conversations.history",
      "conversations.replies",
    ]);
    const warned = lines.filter((l) => /lacks the channels:history scope/.test(String(l.msg)));
    expect(warned).toHaveLength(1);
  });

  it("still throws other history errors in words", async () => {
    const { destination } = await setup();
    const e = await failure(destination.findPosted("C0OUTSIDE", "k1", SINCE));
    expect(e.slackError).toBe("not_in_channel");
    expect(e.message).toContain("invite the bot to C0OUTSIDE (/invite @yourbot)");
  });
});

/**
 * Progress as the ledger keeps it: `crashAt` plays a crash between Slack taking that part and
 * the ledger recording it (the part went out, nothing says so).
 */
function ledgerProgress(done: Map<string, string | null>, crashAt?: string): DeliveryProgress {
  return {
    done,
    async record(part, ref) {
      if (part === crashAt) throw new Error(`crashed before recording ${part}`);
      done.set(part, ref);
    },
  };
}

describe("finishing a thread a crash cut short", () => {
  const KEY = "checkout.daily.2026-11-15";
  const replies = (slack: FakeSlack, ts: string) =>
    slack.posts.filter((p) => p.thread_ts === ts).map((p) => p.text);

  it("finds a reply that went out unrecorded in the thread, and posts only the ones missing", async () => {
    const { slack, destination } = await setup();
    const done = new Map<string, string | null>();
    await failure(
      destination.post(
        "C0123ABCD",
        digest(KEY, ["reply one", "reply two"]),
        undefined,
        ledgerProgress(done, "thread 1"),
      ),
    );
    const ts = String(done.get("post"));
    expect(replies(slack, ts)).toEqual(["reply one"]);

    // The next attempt goes on from what the ledger has: the post, no reply.
    const again = ledgerProgress(new Map(done));
    await destination.post("C0123ABCD", digest(KEY, ["reply one", "reply two"]), undefined, again);

    expect(replies(slack, ts)).toEqual(["reply one", "reply two"]);
    expect([...again.done.keys()].sort()).toEqual(["post", "thread 1", "thread 2"]);
    const lookups = slack.calls.filter((c) => c.method === "conversations.replies");
    expect(lookups.map((c) => [c.params.ts, c.params.include_all_metadata])).toEqual([
      [ts, "true"],
    ]);
  });

  it("names each reply by its slot and part, and a reply never passes for the digest's post", async () => {
    const { slack, destination } = await setup();
    const posted = await destination.post("C0123ABCD", digest(KEY, ["only reply"]));
    const [reply] = slack.posts.filter((p) => p.thread_ts === posted.ts);
    expect(reply?.metadata).toEqual({
      event_type: "insights_digest_part",
      event_payload: { key: KEY, part: "thread 1" },
    });
    expect(await destination.findPosted("C0123ABCD", KEY, SINCE)).toEqual(posted);
  });

  it("finds the workbook and a chart that went out unrecorded in the thread, and uploads only the ones missing", async () => {
    const { slack, destination } = await setup();
    const charts = [chart("flaky-rate.png"), chart("pass-rate.png")];
    const uploaded = () => slack.uploads.map((u) => [u.filename, u.thread_ts]);
    const send = (progress: DeliveryProgress) =>
      destination.post("C0123ABCD", digest(KEY, ["reply"]), workbook, progress, charts);

    // Slack took the workbook; the crash came before the ledger recorded it.
    const done = new Map<string, string | null>();
    await failure(send(ledgerProgress(done, "upload")));
    const ts = String(done.get("post"));
    expect(uploaded()).toEqual([[workbook.filename, ts]]);

    // The restart finds the workbook in the thread; then Slack takes the first chart, and the
    // process crashes again before recording it.
    const second = new Map(done);
    await failure(send(ledgerProgress(second, "upload flaky-rate.png")));
    expect(second.has("upload")).toBe(true);
    expect(uploaded()).toEqual([
      [workbook.filename, ts],
      ["flaky-rate.png", ts],
    ]);

    // The next finds the chart too, and uploads only the one left.
    const third = ledgerProgress(new Map(second));
    await send(third);
    expect(uploaded()).toEqual([
      [workbook.filename, ts],
      ["flaky-rate.png", ts],
      ["pass-rate.png", ts],
    ]);
    expect([...third.done.keys()].sort()).toEqual([
      "post",
      "thread 1",
      "upload",
      "upload flaky-rate.png",
      "upload pass-rate.png",
    ]);
    expect(slack.posts.filter((p) => p.thread_ts === ts).map((p) => p.text)).toEqual(["reply"]);
  });

  it("takes no file of another name in the thread for its own", async () => {
    const { slack, destination } = await setup();
    const done = new Map<string, string | null>();
    const post = digest(KEY);
    await failure(
      destination.post("C0123ABCD", post, undefined, ledgerProgress(done, "upload other.png"), [
        chart("other.png"),
      ]),
    );
    await destination.post("C0123ABCD", post, undefined, ledgerProgress(new Map(done)), [
      chart("flaky-rate.png"),
    ]);
    expect(slack.uploads.map((u) => u.filename)).toEqual(["other.png", "flaky-rate.png"]);
  });

  it("looks in no thread when the post is new in this attempt", async () => {
    const { slack, destination } = await setup();
    await destination.post(
      "C0123ABCD",
      digest(KEY, ["reply"]),
      undefined,
      ledgerProgress(new Map()),
    );
    expect(slack.calls.filter((c) => c.method === "conversations.replies")).toEqual([]);
  });
});

describe("channel names", () => {
  const many: FakeChannel[] = Array.from({ length: 450 }, (_, i) => ({
    id: `C0MANY${String(i).padStart(4, "0")}`,
    name: `team-${i}`,
  }));

  it("resolves a #name once through every page of conversations.list, warns to use the id, and caches it", async () => {
    const { slack, warnings, destination } = await setup({ channels: many });

    const first = await destination.post("#team-420", digest("k1"));
    await destination.post("#team-420", digest("k2"));
    await destination.post("team-7", digest("k3"));

    expect(first.channel).toBe("C0MANY0420");
    expect(slack.posts.map((p) => p.channel)).toEqual(["C0MANY0420", "C0MANY0420", "C0MANY0007"]);
    const listings = slack.calls.filter((c) => c.method === "conversations.list");
    expect(listings).toHaveLength(3); // 450 channels at 200 a page, listed once for the adapter's life
    expect(listings[0]?.params).toMatchObject({
      exclude_archived: "true",
      types: "public_channel,private_channel",
    });
    expect(warnings.map((w) => w.msg)).toEqual([
      expect.stringMatching(/#team-420 resolved to C0MANY0420; put the id in the config.*renaming/),
      expect.stringMatching(/#team-7 resolved to C0MANY0007/),
    ]);
  });

  it("says how to fix a name that matches no channel the bot can see", async () => {
    const { slack, destination } = await setup();
    const e = await failure(destination.post("#nowhere", digest("k1")));
    expect(e.slackError).toBe("channel_not_found");
    expect(e.message).toContain(
      "invite the bot to it (/invite @yourbot) or use the channel id (C…)",
    );
    expect(slack.posts).toEqual([]);
  });

  it("uses an id as it is, without listing channels", async () => {
    const { slack, warnings, destination } = await setup();
    await destination.post("C0ALERTS", digest("k1"));
    expect(slack.calls.map((c) => c.method)).toEqual(["chat.postMessage"]);
    expect(warnings).toEqual([]);
  });
});

describe("the client", () => {
  it("talks to Slack itself unless SLACK_API_URL points elsewhere", async () => {
    const { slack } = await setup();
    const token = new Secret(FAKE_SLACK_TOKEN);
    expect(createSlackClient({ token, apiUrl: null }).slackApiUrl).toBe("https://slack.com/api/");
    const local = createSlackClient({ token, apiUrl: slack.url });
    expect(await local.auth.test()).toMatchObject({ ok: true, bot_id: "B0FAKEBOT" });
  });
});

/** The SlackDeliveryError a promise rejects with (fails the test if it resolves). */
async function failure(promise: Promise<unknown>): Promise<SlackDeliveryError> {
  const outcome = await promise.then(
    () => new Error("expected a SlackDeliveryError, but the call succeeded"),
    (error: unknown) => error,
  );
  if (!(outcome instanceof SlackDeliveryError)) throw outcome;
  return outcome;
}
