import { afterEach, describe, expect, it } from "vitest";
import {
  FAKE_SLACK_TOKEN,
  type FakeSlack,
  startFakeSlack,
} from "../../fake-slack/fake-slack-server.js";

/** The fake itself, called with plain fetch in the wire format Slack documents. */

const started: FakeSlack[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((f) => f.close()));
});

async function fake(options?: Parameters<typeof startFakeSlack>[0]): Promise<FakeSlack> {
  const f = await startFakeSlack(options);
  started.push(f);
  return f;
}

type Json = Record<string, unknown>;

/** A form-encoded POST as @slack/web-api sends it: objects as JSON strings, bearer token. */
async function form(
  f: FakeSlack,
  method: string,
  params: Json,
  token: string | null = FAKE_SLACK_TOKEN,
) {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(params))
    body.set(k, typeof v === "string" ? v : JSON.stringify(v));
  const response = await fetch(f.url + method, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body,
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Json,
  };
}

const section = (text: string) => ({ type: "section", text: { type: "mrkdwn", text } });
const table = { type: "table", rows: [[{ type: "raw_text", text: "a" }]] };

describe("fake Slack wire format", () => {
  it("refuses a wrong bearer token with invalid_auth and a missing one with not_authed", async () => {
    const f = await fake();
    expect((await form(f, "auth.test", {}, "xoxb-wrong")).body).toMatchObject({
      ok: false,
      error: "invalid_auth",
    });
    expect((await form(f, "auth.test", {}, null)).body).toMatchObject({
      ok: false,
      error: "not_authed",
    });
    expect((await form(f, "auth.test", {})).body).toMatchObject({ ok: true, user_id: "U0FAKEBOT" });
  });

  it("accepts the token as a form field and JSON bodies with parsed blocks", async () => {
    const f = await fake();
    const viaField = await form(
      f,
      "chat.postMessage",
      { token: FAKE_SLACK_TOKEN, channel: "C0123ABCD", text: "a" },
      null,
    );
    expect(viaField.body.ok).toBe(true);
    const response = await fetch(`${f.url}chat.postMessage`, {
      method: "POST",
      headers: {
        "content-type": "application/json; charset=utf-8",
        authorization: `Bearer ${FAKE_SLACK_TOKEN}`,
      },
      body: JSON.stringify({ channel: "C0123ABCD", text: "b", blocks: [section("hi")] }),
    });
    expect(await response.json()).toMatchObject({ ok: true });
    expect(f.posts.map((p) => p.text)).toEqual(["a", "b"]);
    expect(f.posts[1]?.blocks).toEqual([section("hi")]);
  });

  it.each([
    [
      "more than 50 blocks",
      { blocks: Array.from({ length: 51 }, () => section("x")) },
      "invalid_blocks",
    ],
    ["a second table block", { blocks: [table, section("x"), table] }, "invalid_blocks"],
    [
      "a header over 150 chars",
      { blocks: [{ type: "header", text: { type: "plain_text", text: "h".repeat(151) } }] },
      "invalid_blocks",
    ],
    ["a section text over 3000 chars", { blocks: [section("s".repeat(3001))] }, "invalid_blocks"],
    [
      "more than 10 fields",
      {
        blocks: [
          {
            type: "section",
            fields: Array.from({ length: 11 }, () => ({ type: "mrkdwn", text: "f" })),
          },
        ],
      },
      "invalid_blocks",
    ],
    ["text over 40,000 chars", { text: "t".repeat(40_001) }, "msg_too_long"],
    ["blocks that are not JSON", { blocks: "[{" }, "invalid_blocks_format"],
    ["metadata without event_type", { metadata: { event_payload: {} } }, "invalid_metadata_format"],
  ])("refuses %s", async (_name, params, error) => {
    const f = await fake();
    const { body } = await form(f, "chat.postMessage", {
      channel: "C0123ABCD",
      text: "fallback",
      ...params,
    });
    expect(body).toMatchObject({ ok: false, error });
    expect(f.posts).toEqual([]);
  });

  it("accepts exactly 50 blocks with one table", async () => {
    const f = await fake();
    const blocks = [table, ...Array.from({ length: 49 }, () => section("x"))];
    expect(
      (await form(f, "chat.postMessage", { channel: "C0123ABCD", text: "t", blocks })).body.ok,
    ).toBe(true);
  });

  it("tells a channel the bot is not in from one that does not exist", async () => {
    const f = await fake();
    expect(
      (await form(f, "chat.postMessage", { channel: "C0OUTSIDE", text: "t" })).body.error,
    ).toBe("not_in_channel");
    expect(
      (await form(f, "chat.postMessage", { channel: "C0NOSUCH1", text: "t" })).body.error,
    ).toBe("channel_not_found");
  });
});

describe("fake Slack history, listing and uploads", () => {
  it("returns history newest first, with metadata only when include_all_metadata is set", async () => {
    const f = await fake();
    const metadata = { event_type: "insights_digest", event_payload: { key: "k1" } };
    await form(f, "chat.postMessage", { channel: "C0123ABCD", text: "first", metadata });
    const second = await form(f, "chat.postMessage", { channel: "C0123ABCD", text: "second" });
    await form(f, "chat.postMessage", {
      channel: "C0123ABCD",
      text: "reply",
      thread_ts: second.body.ts,
    });

    const plain = await form(f, "conversations.history", { channel: "C0123ABCD" });
    const messages = plain.body.messages as Json[];
    expect(messages.map((m) => m.text)).toEqual(["second", "first"]);
    expect(messages[1]).not.toHaveProperty("metadata");
    const full = await form(f, "conversations.history", {
      channel: "C0123ABCD",
      include_all_metadata: "true",
    });
    expect((full.body.messages as Json[])[1]?.metadata).toEqual(metadata);
  });

  it("answers conversations.history with missing_scope when channels:history was not granted", async () => {
    const f = await fake({ scopes: ["chat:write"] });
    const { body } = await form(f, "conversations.history", { channel: "C0123ABCD" });
    expect(body).toMatchObject({ ok: false, error: "missing_scope", needed: "channels:history" });
  });

  it("pages conversations.list with next_cursor until it is empty", async () => {
    const channels = Array.from({ length: 5 }, (_, i) => ({ id: `C0PAGE00${i}`, name: `c${i}` }));
    const f = await fake({ channels });
    const names: unknown[] = [];
    let cursor = "";
    do {
      const { body } = await form(f, "conversations.list", {
        limit: "2",
        ...(cursor ? { cursor } : {}),
      });
      names.push(...(body.channels as Json[]).map((c) => c.name));
      cursor = (body.response_metadata as { next_cursor: string }).next_cursor;
    } while (cursor);
    expect(names).toEqual(["c0", "c1", "c2", "c3", "c4"]);
    expect(f.calls.filter((c) => c.method === "conversations.list")).toHaveLength(3);
  });

  it("takes raw bytes at the upload URL and shares the file in a thread on completion", async () => {
    const f = await fake();
    const bytes = Buffer.from([0, 1, 2, 250, 251]);
    const url = await form(f, "files.getUploadURLExternal", { filename: "a.xlsx", length: "5" });
    const uploadUrl = url.body.upload_url as string;
    expect(uploadUrl.startsWith(f.url.replace(/api\/$/, ""))).toBe(true);
    expect((await fetch(uploadUrl, { method: "POST", body: bytes })).status).toBe(200);
    const done = await form(f, "files.completeUploadExternal", {
      files: [{ id: url.body.file_id, title: "A" }],
      channel_id: "C0123ABCD",
      thread_ts: "1.000001",
    });
    expect(done.body.ok).toBe(true);
    expect(f.uploads).toEqual([
      {
        fileId: url.body.file_id,
        channel: "C0123ABCD",
        thread_ts: "1.000001",
        filename: "a.xlsx",
        title: "A",
        bytes,
        ts: expect.any(String),
      },
    ]);
  });

  it("lists a file shared into a thread among the thread's replies, by id, name and title, as Slack does", async () => {
    const f = await fake();
    const parent = await form(f, "chat.postMessage", { channel: "C0123ABCD", text: "digest" });
    const thread_ts = String(parent.body.ts);
    await form(f, "chat.postMessage", { channel: "C0123ABCD", text: "reply", thread_ts });
    const url = await form(f, "files.getUploadURLExternal", { filename: "a.xlsx", length: "2" });
    await fetch(url.body.upload_url as string, { method: "POST", body: Buffer.from([1, 2]) });
    await form(f, "files.completeUploadExternal", {
      files: [{ id: url.body.file_id, title: "a.xlsx" }],
      channel_id: "C0123ABCD",
      thread_ts,
    });
    await form(f, "chat.postMessage", { channel: "C0123ABCD", text: "later", thread_ts });

    const replies = await form(f, "conversations.replies", { channel: "C0123ABCD", ts: thread_ts });
    const messages = replies.body.messages as Json[];
    expect(messages.map((m) => m.text)).toEqual(["digest", "reply", "", "later"]);
    expect(messages[2]).toMatchObject({
      ts: f.uploads[0]?.ts,
      thread_ts,
      upload: true,
      files: [{ id: url.body.file_id, name: "a.xlsx", title: "a.xlsx", size: 2 }],
    });
    expect(messages[2]).not.toHaveProperty("metadata");
    // A file shared in a thread is no top-level message.
    const history = await form(f, "conversations.history", { channel: "C0123ABCD" });
    expect((history.body.messages as Json[]).map((m) => m.text)).toEqual(["digest"]);
  });
});

describe("fake Slack failures and holds on demand", () => {
  it("answers a queued ratelimited with HTTP 429 and Retry-After, then recovers", async () => {
    const f = await fake();
    f.failNext("auth.test", "ratelimited", { retryAfter: 7, times: 2 });
    const first = await form(f, "auth.test", {});
    expect(first.status).toBe(429);
    expect(first.headers.get("retry-after")).toBe("7");
    expect(first.body).toEqual({ ok: false, error: "ratelimited" });
    expect((await form(f, "auth.test", {})).status).toBe(429);
    expect((await form(f, "auth.test", {})).body.ok).toBe(true);
  });

  it("applies a held post at once but answers only on release", async () => {
    const f = await fake();
    const held = f.holdNext("chat.postMessage");
    const answer = form(f, "chat.postMessage", { channel: "C0123ABCD", text: "held" });
    await held.arrived;
    expect(f.posts.map((p) => p.text)).toEqual(["held"]);
    held.release();
    expect((await answer).body).toMatchObject({ ok: true, ts: f.posts[0]?.ts });
  });

  it("applies an on-release hold only when released", async () => {
    const f = await fake();
    const held = f.holdNext("chat.postMessage", { effect: "on-release" });
    const answer = form(f, "chat.postMessage", { channel: "C0123ABCD", text: "later" });
    await held.arrived;
    expect(f.posts).toEqual([]);
    held.release();
    expect((await answer).body.ok).toBe(true);
    expect(f.posts).toHaveLength(1);
  });

  it("fails and holds only the calls on a named channel, leaving the other channels alone", async () => {
    const f = await fake();
    f.failNext("chat.postMessage", "ratelimited", { channel: "C0ALERTS" });
    const other = await form(f, "chat.postMessage", { channel: "C0123ABCD", text: "a" });
    expect(other.body.ok).toBe(true);
    expect((await form(f, "chat.postMessage", { channel: "C0ALERTS", text: "b" })).status).toBe(
      429,
    );
    const held = f.holdNext("chat.postMessage", { channel: "C0ALERTS", effect: "on-release" });
    expect((await form(f, "chat.postMessage", { channel: "C0123ABCD", text: "c" })).body.ok).toBe(
      true,
    );
    const answer = form(f, "chat.postMessage", { channel: "C0ALERTS", text: "b" });
    await held.arrived;
    expect(f.posts.map((p) => p.text)).toEqual(["a", "c"]);
    held.release();
    expect((await answer).body.ok).toBe(true);
    expect(f.posts.map((p) => p.text)).toEqual(["a", "c", "b"]);
  });

  it("never answers a dropped call; closing the fake ends the connection", async () => {
    const f = await fake();
    const held = f.holdNext("chat.postMessage");
    const answer = form(f, "chat.postMessage", { channel: "C0123ABCD", text: "lost" }).then(
      () => "answered",
      () => "connection closed",
    );
    await held.arrived;
    held.neverAnswer();
    await f.close();
    expect(await answer).toBe("connection closed");
    expect(f.posts).toHaveLength(1);
  });
});
