import type { SlackClients, SlackLogger } from "./slack-client.js";
import { label, toSlackDeliveryError } from "./slack-errors.js";

// Reading what is already in Slack after a crash, for digests and alerts alike: a paged lookup
// (conversations.history, .replies) read page by page, and a thread's file shares known by the
// name we gave them.

/** One page of a Slack lookup that lists messages. */
export interface Page<M> {
  messages?: M[];
  response_metadata?: { next_cursor?: string };
}

/** A message of a thread as conversations.replies lists it, with its file shares. */
export interface ThreadMessage {
  ts?: string;
  files?: Array<{ name?: string; title?: string }>;
  metadata?: { event_type?: string; event_payload?: object };
}

export interface SlackLookups {
  /**
   * The messages of a paged lookup (conversations.history, .replies), page by page as they
   * are read, so a busy channel or a long thread cannot push one out of sight. Without the
   * history scope: none, after the one warning that says so (one per app: see `firstNotice`).
   */
  readPages<M>(
    method: string,
    channel: string,
    signal: AbortSignal | undefined,
    page: (cursor: string | undefined) => Promise<Page<M>>,
  ): AsyncGenerator<M>;
  /** The thread of `ts` in channel `id`, its first message and every reply (conversations.replies). */
  threadPages(
    channel: string,
    thread: { channel: string; ts: string },
    signal: AbortSignal | undefined,
  ): AsyncGenerator<ThreadMessage>;
}

/** The lookups over one set of clients, `pageSize` messages a page. */
export function createSlackLookups(
  clients: SlackClients,
  logger: SlackLogger | undefined,
  pageSize: number,
): SlackLookups {
  const { calls: client, paced } = clients;

  async function* readPages<M>(
    method: string,
    channel: string,
    signal: AbortSignal | undefined,
    page: (cursor: string | undefined) => Promise<Page<M>>,
  ): AsyncGenerator<M> {
    let cursor: string | undefined;
    do {
      let read: Page<M>;
      try {
        const pageCursor = cursor;
        read = await paced(method, () => page(pageCursor), signal);
      } catch (error) {
        const mapped = toSlackDeliveryError(error, { method, channel }, client.token);
        if (mapped.slackError !== "missing_scope") throw mapped;
        warnHistoryScope(channel, mapped.context.needed);
        return;
      }
      yield* read.messages ?? [];
      cursor = read.response_metadata?.next_cursor || undefined;
    } while (cursor);
  }

  function warnHistoryScope(channel: string, needed: unknown): void {
    if (!clients.firstNotice("missing history scope")) return;
    const scope = typeof needed === "string" ? needed : "channels:history";
    logger?.warn(
      { channel: label(channel), needed: scope },
      `the Slack app lacks the ${scope} scope, so after a crash it cannot check whether a message already went out and a restart may post it twice — add ${scope} to the Slack app and reinstall it`,
    );
  }

  return {
    readPages,
    threadPages: (channel, thread, signal) =>
      readPages<ThreadMessage>("conversations.replies", channel, signal, (cursor) =>
        client.conversations.replies({
          channel: thread.channel,
          ts: thread.ts,
          limit: pageSize,
          include_all_metadata: true,
          ...(cursor ? { cursor } : {}),
        }),
      ),
  };
}

/**
 * The files message `m` of our thread shares that we uploaded. A file share carries no
 * metadata (files.completeUploadExternal takes none), so our upload is known by what we gave
 * it: its file name, and the same as its title. The thread is the message's own (its first
 * message found by its key), where each file's name is its own: a digest's workbook is named by
 * team and period, each chart by its kind.
 */
export function filesSharedIn(m: ThreadMessage): string[] {
  return (m.files ?? []).flatMap((f) =>
    f.name !== undefined && (f.title ?? f.name) === f.name ? [f.name] : [],
  );
}
