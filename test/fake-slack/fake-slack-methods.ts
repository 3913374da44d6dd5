import { checkMessage } from "./check-message.js";
import { completeUpload, getUploadUrl } from "./fake-slack-files.js";
import {
  type FakePost,
  type FakeUpload,
  fail,
  findChannel,
  type Handler,
  isPrivate,
  ok,
  writableChannel,
} from "./fake-slack-state.js";
import { flag, jsonField } from "./read-slack-request.js";

const postMessage: Handler = ({ params }, state) => {
  const channel = writableChannel(state, params.channel);
  if ("body" in channel) return channel;
  const blocks = jsonField(params.blocks);
  if (!blocks.ok) return fail("invalid_blocks_format");
  const refusal = checkMessage(params.text, blocks.value);
  if (refusal) return fail(refusal.error, { response_metadata: { messages: refusal.messages } });
  const metadata = jsonField(params.metadata);
  if (!metadata.ok || !validMetadata(metadata.value)) return fail("invalid_metadata_format");
  const post: FakePost = {
    channel: channel.id,
    text: typeof params.text === "string" ? params.text : "",
    blocks: Array.isArray(blocks.value) ? blocks.value : null,
    metadata: metadata.value ?? null,
    thread_ts: typeof params.thread_ts === "string" && params.thread_ts ? params.thread_ts : null,
    ...(params.reply_broadcast === true || params.reply_broadcast === "true"
      ? { reply_broadcast: true }
      : {}),
    ts: state.nextTs(),
  };
  state.posts.push(post);
  return ok({ channel: post.channel, ts: post.ts, message: toMessage(post, true) });
};

/** chat.update: edits a message the bot posted; message_not_found once it is gone. */
const chatUpdate: Handler = ({ params }, state) => {
  const channel = writableChannel(state, params.channel);
  if ("body" in channel) return channel;
  const post = state.posts.find((p) => p.channel === channel.id && p.ts === params.ts);
  if (!post) return fail("message_not_found");
  const blocks = jsonField(params.blocks);
  if (!blocks.ok) return fail("invalid_blocks_format");
  const refusal = checkMessage(params.text, blocks.value);
  if (refusal) return fail(refusal.error, { response_metadata: { messages: refusal.messages } });
  post.text = typeof params.text === "string" ? params.text : "";
  post.blocks = Array.isArray(blocks.value) ? blocks.value : null;
  post.edits = (post.edits ?? 0) + 1;
  return ok({ channel: post.channel, ts: post.ts, text: post.text });
};

function validMetadata(value: unknown): value is FakePost["metadata"] | undefined {
  if (value === undefined || value === null) return true;
  if (typeof value !== "object") return false;
  const { event_type, event_payload } = value as Record<string, unknown>;
  return (
    typeof event_type === "string" && typeof event_payload === "object" && event_payload !== null
  );
}

function toMessage(post: FakePost, withMetadata: boolean): Record<string, unknown> {
  return {
    type: "message",
    user: "U0FAKEBOT",
    bot_id: "B0FAKEBOT",
    text: post.text,
    ts: post.ts,
    ...(post.blocks ? { blocks: post.blocks } : {}),
    ...(post.thread_ts ? { thread_ts: post.thread_ts } : {}),
    ...(withMetadata && post.metadata ? { metadata: post.metadata } : {}),
  };
}

/**
 * The message that shares uploaded files in a thread, as conversations.replies lists it: no
 * metadata (files.completeUploadExternal takes none), the files by id, name and title.
 */
function fileShareMessage(ts: string, threadTs: string, files: readonly FakeUpload[]) {
  return {
    type: "message",
    user: "U0FAKEBOT",
    text: "",
    upload: true,
    display_as_bot: false,
    files: files.map((f) => ({
      id: f.fileId,
      name: f.filename,
      title: f.title ?? f.filename,
      size: f.bytes.length,
    })),
    ts,
    thread_ts: threadTs,
  };
}

/** Offset-based cursors, opaque to the client as Slack's are. */
function page<T>(items: T[], params: Record<string, unknown>, defaultLimit: number) {
  const limit = Math.max(1, Math.min(Number(params.limit) || defaultLimit, 1000));
  const cursor = typeof params.cursor === "string" && params.cursor ? params.cursor : null;
  const offset = cursor ? Number(Buffer.from(cursor, "base64").toString("utf8").split(":")[1]) : 0;
  const slice = items.slice(offset, offset + limit);
  const more = offset + limit < items.length;
  const next = more ? Buffer.from(`offset:${offset + limit}`).toString("base64") : "";
  return { slice, more, next };
}

const conversationsList: Handler = ({ params }, state) => {
  const types = String(params.types ?? "public_channel").split(",");
  const visible = state.channels.filter(
    (c) =>
      types.includes(isPrivate(c) ? "private_channel" : "public_channel") &&
      !(isPrivate(c) && c.member === false) &&
      !(flag(params.exclude_archived) && c.archived),
  );
  const { slice, next } = page(visible, params, 100);
  return ok({
    channels: slice.map((c) => ({
      id: c.id,
      name: c.name,
      is_channel: !isPrivate(c),
      is_private: isPrivate(c),
      is_member: c.member !== false,
      is_archived: c.archived === true,
    })),
    response_metadata: { next_cursor: next },
  });
};

const conversationsHistory: Handler = ({ params }, state) => {
  const channel = findChannel(state, params.channel);
  if (!channel || channel.id !== params.channel) return fail("channel_not_found");
  if (channel.member === false) return fail("not_in_channel");
  // Newest first, top-level messages only (thread replies live in conversations.replies).
  const oldest = Number(params.oldest ?? 0);
  const top = state.posts
    .filter((p) => p.channel === channel.id && !p.thread_ts && Number(p.ts) >= oldest)
    .reverse();
  const { slice, more, next } = page(top, params, 100);
  const withMetadata = flag(params.include_all_metadata);
  return ok({
    messages: slice.map((p) => toMessage(p, withMetadata)),
    has_more: more,
    pin_count: 0,
    response_metadata: { next_cursor: next },
  });
};

/** conversations.replies: the thread's first message, then its replies, oldest first. */
const conversationsReplies: Handler = ({ params }, state) => {
  const channel = findChannel(state, params.channel);
  if (!channel || channel.id !== params.channel) return fail("channel_not_found");
  if (channel.member === false) return fail("not_in_channel");
  const parent = state.posts.find((p) => p.channel === channel.id && p.ts === params.ts);
  if (!parent) return fail("thread_not_found");
  const withMetadata = flag(params.include_all_metadata);
  const replies = state.posts
    .filter((p) => p.channel === channel.id && p.thread_ts === parent.ts)
    .map((p) => toMessage(p, withMetadata));
  // Files shared into the thread are replies too: a message whose `files` list them.
  const byTs = new Map<string, FakeUpload[]>();
  for (const u of state.uploads) {
    if (u.channel !== channel.id || u.thread_ts !== parent.ts || u.ts === null) continue;
    byTs.set(u.ts, [...(byTs.get(u.ts) ?? []), u]);
  }
  const shares = [...byTs].map(([ts, files]) => fileShareMessage(ts, parent.ts, files));
  const thread = [...replies, ...shares].sort((a, b) => Number(a.ts) - Number(b.ts));
  const { slice, more, next } = page([toMessage(parent, withMetadata), ...thread], params, 1000);
  return ok({
    messages: slice,
    has_more: more,
    response_metadata: { next_cursor: next },
  });
};

/** chat.postEphemeral: shown to one user in a channel the bot can write in. */
const postEphemeral: Handler = ({ params }, state) => {
  const channel = writableChannel(state, params.channel);
  if ("body" in channel) return channel;
  if (typeof params.user !== "string" || !params.user) return fail("user_not_in_channel");
  const blocks = jsonField(params.blocks);
  if (!blocks.ok) return fail("invalid_blocks_format");
  const refusal = checkMessage(params.text, blocks.value);
  if (refusal) return fail(refusal.error);
  const text = typeof params.text === "string" ? params.text : "";
  state.ephemerals.push({ channel: channel.id, user: params.user, text });
  return ok({ message_ts: state.nextTs() });
};

/** usergroups.users.list: a user group's members; no_such_subteam for an unknown id. */
const usergroupUsers: Handler = ({ params }, state) => {
  const users = state.usergroups.get(String(params.usergroup ?? ""));
  return users ? ok({ users }) : fail("no_such_subteam");
};

/** chat.getPermalink: a message's link, as Slack builds it from the workspace, channel and ts. */
const getPermalink: Handler = ({ params }, state) => {
  const channel = findChannel(state, params.channel);
  if (!channel) return fail("channel_not_found");
  const post = state.posts.find((p) => p.channel === channel.id && p.ts === params.message_ts);
  if (!post) return fail("message_not_found");
  return ok({
    channel: channel.id,
    permalink: `https://fake-workspace.slack.com/archives/${channel.id}/p${post.ts.replace(".", "")}`,
  });
};

const authTest: Handler = () =>
  ok({
    url: "https://fake-workspace.slack.com/",
    team: "Fake Workspace",
    user: "insights-bot",
    team_id: "T0FAKE",
    user_id: "U0FAKEBOT",
    bot_id: "B0FAKEBOT",
  });

export const METHODS: Readonly<Record<string, Handler>> = {
  "auth.test": authTest,
  "chat.postMessage": postMessage,
  "chat.postEphemeral": postEphemeral,
  "usergroups.users.list": usergroupUsers,
  "chat.update": chatUpdate,
  "chat.getPermalink": getPermalink,
  "conversations.list": conversationsList,
  "conversations.history": conversationsHistory,
  "conversations.replies": conversationsReplies,
  "files.getUploadURLExternal": getUploadUrl,
  "files.completeUploadExternal": completeUpload,
};
