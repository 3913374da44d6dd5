import type { Block, KnownBlock } from "@slack/web-api";
import { SlackDeliveryError } from "../../errors.js";
import type { SlackMessage, SlackPost } from "../../messages.js";
import { createChannelResolver } from "./slack-channel-resolver.js";
import type { SlackClients, SlackLogger } from "./slack-client.js";
import type { SlackAlertDestination, SlackAlertPosted, SlackDestination } from "./slack-clients.js";
import { createSlackDestination } from "./slack-destination.js";
import { toSlackDeliveryError } from "./slack-errors.js";
import { createSlackLookups, filesSharedIn } from "./slack-thread.js";

// Alert messages over the Slack Web API: a reply goes in the fire's thread, and the fire's
// first message is edited with chat.update. When that first message was deleted, Slack answers
// message_not_found (thread_not_found for a reply): the reply becomes a new post instead, so
// the news still reaches the channel.

const GONE = new Set(["message_not_found", "thread_not_found"]);

export interface SlackAlertDestinationOptions {
  /** Messages per page of a thread's lookup (default 200). */
  threadPageSize?: number;
  /**
   * How an earlier message is found: the digest half's lookup over the same clients, so both
   * share its channel resolution. Absent: one of its own over `clients`.
   */
  findPosted?: SlackDestination["findPosted"];
}

/** The alert half of the Slack adapter, over the same clients as digests. */
export function createSlackAlertDestination(
  clients: SlackClients,
  logger?: SlackLogger,
  options: SlackAlertDestinationOptions = {},
): SlackAlertDestination {
  const { calls, writes, paced } = clients;
  const { threadPageSize = 200 } = options;
  const findPosted =
    options.findPosted ??
    createSlackDestination({ clients, ...(logger ? { logger } : {}) }).findPosted;
  const resolve = createChannelResolver(clients, logger);
  const { threadPages } = createSlackLookups(clients, logger, threadPageSize);

  /** One Web API call; an abort of `signal` stops it before it starts or cuts its request. */
  async function call<T>(
    method: string,
    channel: string,
    run: () => Promise<T>,
    signal: AbortSignal | undefined,
  ): Promise<T> {
    try {
      return await paced(method, run, signal, channel);
    } catch (error) {
      throw toSlackDeliveryError(error, { method, channel }, calls.token);
    }
  }
  const body = (m: SlackMessage) => ({
    text: m.text,
    blocks: m.blocks as unknown as (KnownBlock | Block)[],
    unfurl_links: false,
    unfurl_media: false,
  });

  async function post(
    channel: string,
    id: string,
    message: SlackPost,
    threadTs: string | null,
    { broadcast = false, signal }: { broadcast?: boolean; signal?: AbortSignal },
  ) {
    // Never retried by the library (no write is): after a timeout it may have landed.
    const base = { channel: id, ...body(message.main), metadata: message.metadata };
    const sent = await call(
      "chat.postMessage",
      channel,
      () =>
        writes.chat.postMessage(
          threadTs === null ? base : { ...base, thread_ts: threadTs, reply_broadcast: broadcast },
        ),
      signal,
    );
    if (!sent.ts) {
      throw new SlackDeliveryError("Slack accepted the message but sent back no ts", null, {
        method: "chat.postMessage",
        channel,
      });
    }
    return sent.ts;
  }

  return {
    async postAlert(channel, message, threadTs, options = {}): Promise<SlackAlertPosted> {
      const id = await resolve(channel);
      if (threadTs) {
        try {
          const ts = await post(channel, id, message, threadTs, options);
          return { channel: id, ts, threaded: true };
        } catch (error) {
          if (!(error instanceof SlackDeliveryError && GONE.has(error.slackError ?? "")))
            throw error;
          logger?.warn({ channel, threadTs }, "the alert's first message is gone; posting anew");
        }
      }
      const ts = await post(channel, id, message, null, { signal: options.signal });
      return { channel: id, ts, threaded: false };
    },

    async updateAlert(channel, ts, message, _names, signal) {
      const id = await resolve(channel);
      try {
        await call(
          "chat.update",
          channel,
          () => writes.chat.update({ channel: id, ts, ...body(message) }),
          signal,
        );
        return true;
      } catch (error) {
        if (error instanceof SlackDeliveryError && GONE.has(error.slackError ?? "")) return false;
        throw error;
      }
    },

    async uploadToThread(channel, ts, file, signal) {
      const id = await resolve(channel);
      await call(
        "files.uploadV2",
        channel,
        () =>
          writes.files.uploadV2({
            channel_id: id,
            thread_ts: ts,
            file: file.content,
            filename: file.filename,
            title: file.filename,
          }),
        signal,
      );
    },

    async filesInThread(channel, ts, signal) {
      const id = await resolve(channel);
      const files = new Set<string>();
      for await (const m of threadPages(channel, { channel: id, ts }, signal)) {
        for (const name of filesSharedIn(m)) files.add(name);
      }
      return files;
    },

    findPosted,

    async permalink(channel, ts, signal) {
      const id = await resolve(channel);
      // A read: the library may retry it.
      const found = await call(
        "chat.getPermalink",
        channel,
        () => calls.chat.getPermalink({ channel: id, message_ts: ts }),
        signal,
      );
      return found.permalink ?? null;
    },
  };
}
