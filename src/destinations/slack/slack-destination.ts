import type { Block, KnownBlock } from "@slack/web-api";
import type { DeliveryProgress } from "../../deliver/types.js";
import { SlackDeliveryError } from "../../errors.js";
import type { Attachment, SlackMessage, SlackPost } from "../../messages.js";
import { createChannelResolver } from "./slack-channel-resolver.js";
import type { SlackClients, SlackLogger } from "./slack-client.js";
import type { SlackDestination, SlackPosted } from "./slack-clients.js";
import { label, toSlackDeliveryError } from "./slack-errors.js";
import { createSlackLookups, filesSharedIn } from "./slack-thread.js";

export interface SlackDestinationOptions {
  clients: SlackClients;
  logger?: SlackLogger;
  /** Messages per page of `findPosted`'s history lookup (default 200). */
  historyPageSize?: number;
}

/**
 * Slack delivery over the Web API: the message, its thread replies, then the file in the thread.
 * Once the main message is out, a later failure throws a SlackDeliveryError that names the
 * parts still missing; the ledger has the post's ts (part `post`), so the retry never posts it
 * twice and sends only what is missing.
 */
export function createSlackDestination(options: SlackDestinationOptions): SlackDestination {
  const { logger } = options;
  const { calls: client, writes, paced } = options.clients;
  const historyPageSize = options.historyPageSize ?? 200;
  const resolve = createChannelResolver(options.clients, logger);
  const { readPages, threadPages } = createSlackLookups(options.clients, logger, historyPageSize);

  /** Runs one Web API call, turning its failure into a SlackDeliveryError in words. */
  async function call<T>(
    method: string,
    channel: string,
    run: () => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    try {
      return await paced(method, run, signal, channel);
    } catch (error) {
      throw toSlackDeliveryError(error, { method, channel }, client.token);
    }
  }

  const message = (m: SlackMessage) => ({
    text: m.text,
    // Our renderers build Block Kit JSON; Slack, not the type system, is the judge of it.
    blocks: m.blocks as unknown as (KnownBlock | Block)[],
    unfurl_links: false,
    unfurl_media: false,
  });

  return {
    async post(
      channel: string,
      post: SlackPost,
      file?: Attachment,
      progress?: DeliveryProgress,
      charts: readonly Attachment[] = [],
    ): Promise<SlackPosted> {
      const signal = progress?.signal;
      const id = await resolve(channel);
      const earlier = progress?.done.get("post");
      const posted: SlackPosted = {
        channel: id,
        ts: earlier ?? (await postMain(channel, id, post, signal)),
      };
      await progress?.record("post", posted.ts);
      // Parts an earlier attempt did (it crashed, or failed half-way) are not sent again.
      const todo = (part: string) => !progress?.done.has(part);
      const total = post.thread.length;
      const key = post.metadata.event_payload.key;
      // The workbook (part "upload", its old name), then each chart a part of its own.
      const uploads: Upload[] = [
        ...(file ? [{ part: "upload", attachment: file }] : []),
        ...charts.map((chart) => ({ part: `upload ${chart.filename}`, attachment: chart })),
      ];
      const replies = post.thread.map((_, i) => `thread ${i + 1}`);
      const parts = [...replies, ...uploads.map((u) => u.part)];
      let step = "";
      try {
        // A reply or a file an earlier attempt sent but did not get to record (it crashed in
        // between) is in the thread: recorded as done, not sent again.
        if (earlier && progress && parts.some(todo)) {
          step = "lookup of the thread's replies";
          for (const part of await partsInThread(channel, posted, key, uploads, signal)) {
            if (parts.includes(part)) await progress.record(part, null);
          }
        }
        for (const [i, reply] of post.thread.entries()) {
          const part = `thread ${i + 1}`;
          if (!todo(part)) continue;
          step = `thread reply ${i + 1} of ${total}`;
          await call(
            "chat.postMessage",
            channel,
            () =>
              writes.chat.postMessage({
                channel: id,
                thread_ts: posted.ts,
                ...message(reply),
                metadata: partMetadata(key, part),
              }),
            signal,
          );
          await progress?.record(part, null);
        }
        for (const { part, attachment } of uploads) {
          if (!todo(part)) continue;
          step = `upload of ${attachment.filename}`;
          await call(
            "files.uploadV2",
            channel,
            () =>
              writes.files.uploadV2({
                channel_id: id,
                thread_ts: posted.ts,
                file: attachment.content,
                filename: attachment.filename,
                title: attachment.filename,
              }),
            signal,
          );
          await progress?.record(part, null);
        }
      } catch (error) {
        const cause = toSlackDeliveryError(
          error,
          { method: "chat.postMessage", channel },
          client.token,
        );
        // What `history` shows until the retry has sent it (the parts done are not resent).
        const missing = parts.filter(todo).map((part) => partName(part, uploads));
        throw new SlackDeliveryError(
          `the message was posted to ${label(channel)} (ts ${posted.ts}), but the ${step} failed: ${cause.message}; still missing: ${missing.join(", ")}`,
          cause.slackError,
          { ...cause.context, channelId: id, ts: posted.ts, posted: true, failedStep: step },
        );
      }
      return posted;
    },

    async findPosted(
      channel: string,
      key: string,
      since: Date,
      signal?: AbortSignal,
      thread?: string,
      reads?: Map<string, unknown>,
    ): Promise<SlackPosted | null> {
      const id = await resolve(channel);
      // A reply is in its thread; when Slack no longer has the thread, a reply to it went out
      // as a new post (an alert's, see postAlert), which the channel's history holds.
      if (thread !== undefined) {
        try {
          for await (const m of threadPages(channel, { channel: id, ts: thread }, signal)) {
            if (m.ts !== thread && m.ts && isPostOf(m, key)) return { channel: id, ts: m.ts };
          }
          return null;
        } catch (error) {
          if (!(error instanceof SlackDeliveryError && error.slackError === "thread_not_found")) {
            throw error;
          }
        }
      }
      // Every top-level message since the slot could first have been posted, page by page, so a
      // busy channel cannot push the digest out of sight.
      const oldestMs = since.getTime() - CLOCK_SKEW_MS;
      if (!reads) {
        for await (const m of historySince(channel, id, oldestMs, signal)) {
          if (m.ts && isPostOf(m, key)) return { channel: id, ts: m.ts };
        }
        return null;
      }
      // Shared by the run's slots: one read of the channel serves every slot that looks in it
      // (a lost ledger's first tick looks for hundreds), unless one needs to look further back.
      // Each slot's earlier attempt ended before the run began, so a read begun in it sees it.
      const name = `slack history ${id}`;
      let shared = reads.get(name) as SharedHistory | undefined;
      if (!shared || shared.oldestMs > oldestMs) {
        shared = { oldestMs, posts: postsByKey(channel, id, oldestMs, signal) };
        reads.set(name, shared);
        const started = shared;
        shared.posts.catch(() => {
          if (reads.get(name) === started) reads.delete(name);
        });
      }
      const found = (await shared.posts).get(key);
      return found !== undefined && Number(found) * 1000 >= oldestMs
        ? { channel: id, ts: found }
        : null;
    },
  };

  /** The channel's top-level messages since `oldestMs`, page by page (conversations.history). */
  function historySince(
    channel: string,
    id: string,
    oldestMs: number,
    signal: AbortSignal | undefined,
  ) {
    const oldest = (oldestMs / 1000).toFixed(6);
    return readPages("conversations.history", channel, signal, (cursor) =>
      client.conversations.history({
        channel: id,
        oldest,
        limit: historyPageSize,
        include_all_metadata: true,
        ...(cursor ? { cursor } : {}),
      }),
    );
  }

  /** Each post of ours in the channel since `oldestMs` by its key (the first seen, the newest). */
  async function postsByKey(
    channel: string,
    id: string,
    oldestMs: number,
    signal: AbortSignal | undefined,
  ): Promise<ReadonlyMap<string, string>> {
    const posts = new Map<string, string>();
    for await (const m of historySince(channel, id, oldestMs, signal)) {
      const key = keyOfPost(m);
      if (m.ts && key !== null && !posts.has(key)) posts.set(key, m.ts);
    }
    return posts;
  }

  /** The digest's own message; its ts is what the thread and the ledger hang on. */
  async function postMain(
    channel: string,
    id: string,
    post: SlackPost,
    signal: AbortSignal | undefined,
  ): Promise<string> {
    const main = await call(
      "chat.postMessage",
      channel,
      () =>
        writes.chat.postMessage({ channel: id, ...message(post.main), metadata: post.metadata }),
      signal,
    );
    if (!main.ts) {
      throw new SlackDeliveryError("Slack accepted the message but sent back no ts", null, {
        method: "chat.postMessage",
        channel,
      });
    }
    return main.ts;
  }

  /**
   * The parts of `key` in the thread of `posted` (conversations.replies), page by page: each
   * reply by its part metadata, each upload by its file (see `filesSharedIn`). Without the history
   * scope: none, after the one warning that says so.
   */
  async function partsInThread(
    channel: string,
    posted: SlackPosted,
    key: string,
    uploads: readonly Upload[],
    signal: AbortSignal | undefined,
  ): Promise<Set<string>> {
    const parts = new Set<string>();
    for await (const m of threadPages(channel, posted, signal)) {
      const files = filesSharedIn(m);
      for (const { part, attachment } of uploads) {
        if (files.includes(attachment.filename)) parts.add(part);
      }
      const payload = m.metadata?.event_payload as Record<string, unknown> | undefined;
      if (m.metadata?.event_type !== PART_EVENT || payload?.key !== key) continue;
      if (typeof payload.part === "string") parts.add(payload.part);
    }
    return parts;
  }
}

/** A file the digest uploads into its thread, and the part it is recorded as. */
interface Upload {
  part: string;
  attachment: Attachment;
}

/** A part as people read it: `thread reply 2`, `upload of insights-….xlsx`. */
function partName(part: string, uploads: readonly Upload[]): string {
  const upload = uploads.find((u) => u.part === part);
  if (upload) return `upload of ${upload.attachment.filename}`;
  return part.replace(/^thread /, "thread reply ");
}

/** The metadata event of a digest's thread reply: which slot, which part. */
const PART_EVENT = "insights_digest_part";

function partMetadata(key: string, part: string) {
  return { event_type: PART_EVENT, event_payload: { key, part } };
}

// Slack's clock and ours may disagree a little; look a bit further back than the fire.
const CLOCK_SKEW_MS = 10 * 60_000;

/** A channel's posts by key, read once and shared by the run's slots (see findPosted). */
interface SharedHistory {
  oldestMs: number;
  posts: Promise<ReadonlyMap<string, string>>;
}

/** The key of a message that is a post of ours itself (a digest, an alert), else null. */
function keyOfPost(m: {
  metadata?: { event_type?: string; event_payload?: object };
}): string | null {
  if (m.metadata?.event_type === PART_EVENT) return null;
  const payload = m.metadata?.event_payload as { key?: unknown } | undefined;
  return typeof payload?.key === "string" ? payload.key : null;
}

/** Whether `m` is the message of `key` itself (a digest, an alert), not one of its parts. */
function isPostOf(
  m: { metadata?: { event_type?: string; event_payload?: object } },
  key: string,
): boolean {
  if (m.metadata?.event_type === PART_EVENT) return false;
  const payload = m.metadata?.event_payload;
  return payload !== undefined && "key" in payload && payload.key === key;
}
