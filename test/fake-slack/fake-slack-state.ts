import type { SlackRequest } from "./read-slack-request.js";

/** The fake workspace's data and the small helpers every method handler shares. */

/** A channel of the fake workspace; `member` is whether the bot is in it (default true). */
export interface FakeChannel {
  id: string;
  name: string;
  member?: boolean;
  /** Private channels (ids starting with G are private too). */
  private?: boolean;
  archived?: boolean;
}

/** An accepted chat.postMessage, with its JSON-string fields parsed. */
export interface FakePost {
  channel: string;
  text: string;
  blocks: unknown[] | null;
  metadata: { event_type: string; event_payload: Record<string, unknown> } | null;
  thread_ts: string | null;
  /** A reply also shown in the channel. */
  reply_broadcast?: boolean;
  ts: string;
  /** How many times chat.update edited it. */
  edits?: number;
}

/** An accepted chat.postEphemeral: a message only `user` sees, never stored in the channel. */
export interface FakeEphemeral {
  channel: string;
  user: string;
  text: string;
}

/** A file shared by files.completeUploadExternal. */
export interface FakeUpload {
  fileId: string;
  channel: string | null;
  thread_ts: string | null;
  filename: string;
  title: string | null;
  bytes: Buffer;
  /**
   * The ts of the message that shares it in its channel (one per completed upload, whatever
   * the number of its files, as Slack posts it); null when it was shared nowhere.
   */
  ts: string | null;
}

export interface FakeSlackState {
  channels: FakeChannel[];
  posts: FakePost[];
  uploads: FakeUpload[];
  pendingFiles: Map<string, { filename: string; length: number; bytes: Buffer | null }>;
  ephemerals: FakeEphemeral[];
  /** User group id (S…) → its members' user ids, for usergroups.users.list. */
  usergroups: Map<string, string[]>;
  /** Base for upload URLs: `http://127.0.0.1:port`. */
  origin: string;
  nextTs(): string;
  nextFileId(): string;
}

/** What the fake answers: a status (200 unless said), extra headers, and a JSON or text body. */
export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  body: Record<string, unknown> | string;
}

export type Handler = (request: SlackRequest, state: FakeSlackState) => Reply;

export function fail(error: string, extra: Record<string, unknown> = {}): Reply {
  return { body: { ok: false, error, ...extra } };
}

export function ok(fields: Record<string, unknown> = {}): Reply {
  return { body: { ok: true, ...fields } };
}

/** The bot token scope each method needs, as Slack's `needed` field names it. */
export function scopeFor(method: string, params: Record<string, unknown>): string | null {
  switch (method) {
    case "chat.postMessage":
    case "chat.postEphemeral":
      return "chat:write";
    case "usergroups.users.list":
      return "usergroups:read";
    case "conversations.list":
      return "channels:read";
    case "conversations.history":
    case "conversations.replies":
      return String(params.channel ?? "").startsWith("G") ? "groups:history" : "channels:history";
    case "files.getUploadURLExternal":
    case "files.completeUploadExternal":
      return "files:write";
    default:
      return null;
  }
}

/** A channel by id, or by name with or without `#` (chat.postMessage accepts both). */
export function findChannel(state: FakeSlackState, ref: unknown): FakeChannel | undefined {
  if (typeof ref !== "string") return undefined;
  const name = ref.replace(/^#/, "");
  return state.channels.find((c) => c.id === ref || c.name === name);
}

export function isPrivate(channel: FakeChannel): boolean {
  return channel.private ?? channel.id.startsWith("G");
}

/** Resolves a channel the bot can write in, or the error Slack gives. */
export function writableChannel(state: FakeSlackState, ref: unknown): FakeChannel | Reply {
  const channel = findChannel(state, ref);
  if (!channel || (isPrivate(channel) && channel.member === false))
    return fail("channel_not_found");
  if (channel.archived) return fail("is_archived");
  if (channel.member === false) return fail("not_in_channel");
  return channel;
}
