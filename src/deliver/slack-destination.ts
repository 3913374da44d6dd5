import type { Block, KnownBlock } from "@slack/web-api";
import { SlackDeliveryError } from "../errors.js";
import type { Attachment, SlackMessage, SlackPost } from "../messages.js";
import { createChannelResolver } from "./slack-channel-resolver.js";
import type { SlackClients, SlackLogger } from "./slack-client.js";
import { label, toSlackDeliveryError } from "./slack-errors.js";
import type { DeliveryProgress, SlackDestination, SlackPosted } from "./types.js";

export interface SlackDestinationOptions {
  clients: SlackClients;
  logger?: SlackLogger;
  /** Messages per page of `findPosted`'s history lookup (default 200). */
  historyPageSize?: number;
}

/**
 * Slack delivery over the Web API: the message, its thread replies, then the file in the thread.
 * Once the main message is out, a later failure throws a SlackDeliveryError whose context holds
 * `ts` and `posted: true`, so the caller records the post as sent and never posts it twice.
 */
export function createSlackDestination(options: SlackDestinationOptions): SlackDestination {
  const { logger } = options;
  const { calls: client, posts, paced } = options.clients;
  const historyPageSize = options.historyPageSize ?? 200;
  const resolve = createChannelResolver(options.clients, logger);
  let warnedHistoryScope = false;

  /** Runs one Web API call, turning its failure into a SlackDeliveryError in words. */
  async function call<T>(method: string, channel: string, run: () => Promise<T>): Promise<T> {
    try {
      return await paced(method, run);
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
      const id = await resolve(channel);
      const posted: SlackPosted = {
        channel: id,
        ts: progress?.done.get("post") ?? (await postMain(channel, id, post)),
      };
      await progress?.record("post", posted.ts);
      // Parts an earlier attempt did (it crashed, or failed half-way) are not sent again.
      const todo = (part: string) => !progress?.done.has(part);
      const total = post.thread.length;
      let step = "";
      try {
        for (const [i, reply] of post.thread.entries()) {
          if (!todo(`thread ${i + 1}`)) continue;
          step = `thread reply ${i + 1} of ${total}`;
          await call("chat.postMessage", channel, () =>
            client.chat.postMessage({ channel: id, thread_ts: posted.ts, ...message(reply) }),
          );
          await progress?.record(`thread ${i + 1}`, null);
        }
        if (file && todo("upload")) {
          step = `upload of ${file.filename}`;
          await call("files.uploadV2", channel, () =>
            client.files.uploadV2({
              channel_id: id,
              thread_ts: posted.ts,
              file: file.content,
              filename: file.filename,
              title: file.filename,
            }),
          );
          await progress?.record("upload", null);
        }
        // Each chart a part of its own, after the workbook (whose part keeps its old name).
        for (const chart of charts) {
          const part = `upload ${chart.filename}`;
          if (!todo(part)) continue;
          step = `upload of ${chart.filename}`;
          await call("files.uploadV2", channel, () =>
            client.files.uploadV2({
              channel_id: id,
              thread_ts: posted.ts,
              file: chart.content,
              filename: chart.filename,
              title: chart.filename,
            }),
          );
          await progress?.record(part, null);
        }
      } catch (error) {
        const cause = toSlackDeliveryError(
          error,
          { method: "chat.postMessage", channel },
          client.token,
        );
        throw new SlackDeliveryError(
          `the message was posted to ${label(channel)} (ts ${posted.ts}), but the ${step} failed: ${cause.message}`,
          cause.slackError,
          { ...cause.context, channelId: id, ts: posted.ts, posted: true, failedStep: step },
        );
      }
      return posted;
    },

    async findPosted(channel: string, key: string, since: Date): Promise<SlackPosted | null> {
      const id = await resolve(channel);
      // Every top-level message since the slot could first have been posted, page by page, so a
      // busy channel cannot push the digest out of sight.
      const oldest = ((since.getTime() - CLOCK_SKEW_MS) / 1000).toFixed(6);
      let cursor: string | undefined;
      do {
        let page: Awaited<ReturnType<typeof client.conversations.history>>;
        try {
          const pageCursor = cursor;
          page = await paced("conversations.history", () =>
            client.conversations.history({
              channel: id,
              oldest,
              limit: historyPageSize,
              include_all_metadata: true,
              ...(pageCursor ? { cursor: pageCursor } : {}),
            }),
          );
        } catch (error) {
          const mapped = toSlackDeliveryError(
            error,
            { method: "conversations.history", channel },
            client.token,
          );
          if (mapped.slackError !== "missing_scope") throw mapped;
          warnHistoryScope(channel, mapped.context.needed);
          return null;
        }
        const found = (page.messages ?? []).find((m) => keyOf(m.metadata?.event_payload) === key);
        if (found?.ts) return { channel: id, ts: found.ts };
        cursor = page.response_metadata?.next_cursor || undefined;
      } while (cursor);
      return null;
    },
  };

  /** The digest's own message; its ts is what the thread and the ledger hang on. */
  async function postMain(channel: string, id: string, post: SlackPost): Promise<string> {
    const main = await call("chat.postMessage", channel, () =>
      posts.chat.postMessage({ channel: id, ...message(post.main), metadata: post.metadata }),
    );
    if (!main.ts) {
      throw new SlackDeliveryError("Slack accepted the message but sent back no ts", null, {
        method: "chat.postMessage",
        channel,
      });
    }
    return main.ts;
  }

  function warnHistoryScope(channel: string, needed: unknown): void {
    if (warnedHistoryScope) return;
    warnedHistoryScope = true;
    const scope = typeof needed === "string" ? needed : "channels:history";
    logger?.warn(
      { channel: label(channel), needed: scope },
      `the Slack app lacks the ${scope} scope, so after a crash it cannot check whether a message already went out and a restart may post it twice — add ${scope} to the Slack app and reinstall it`,
    );
  }
}

// Slack's clock and ours may disagree a little; look a bit further back than the fire.
const CLOCK_SKEW_MS = 10 * 60_000;

function keyOf(payload: object | undefined): unknown {
  return payload && "key" in payload ? payload.key : undefined;
}
