import type { OutboxFiles } from "../../deliver/outbox.js";
import type { Attachment, SlackPost } from "../../messages.js";
import type { SlackAlertDestination, SlackDestination, SlackPosted } from "./slack-clients.js";

/**
 * Slack's outbox: each message as `<key>.slack.json`, the workbook as its file; an alert message
 * as `<key>.slack.json` (`thread_ts` when a reply); an edit of a fire's first message as
 * `<key>.update.<fire key>.slack.json`; a fire's chart as `<key>.<chart>.png`.
 */
export function slackOutbox(files: OutboxFiles): {
  digest: SlackDestination;
  alert: SlackAlertDestination;
} {
  const { save } = files;
  const digest: SlackDestination = {
    async post(channel: string, post: SlackPost, file?: Attachment): Promise<SlackPosted> {
      const key = post.metadata.event_payload.key;
      const body = {
        channel,
        text: post.main.text,
        blocks: post.main.blocks,
        metadata: post.metadata,
        ...(post.thread.length > 0 ? { thread: post.thread } : {}),
      };
      await save(`${key}.slack.json`, `${JSON.stringify(body, null, 2)}\n`);
      if (file) await save(file.filename, file.content);
      return { channel, ts: "outbox" };
    },
    async findPosted(): Promise<SlackPosted | null> {
      return null;
    },
  };

  const alert: SlackAlertDestination = {
    // Nothing written to an outbox is found again: a retry writes it anew.
    findPosted: digest.findPosted,
    async postAlert(channel, post, threadTs, options = {}) {
      const key = post.metadata.event_payload.key;
      const body = postBody(channel, post);
      await save(
        `${key}.slack.json`,
        `${JSON.stringify(threadTs ? { ...body, thread_ts: threadTs, ...broadcast(options) } : body, null, 2)}\n`,
      );
      return { channel, ts: `outbox:${key}`, threaded: threadTs !== null };
    },
    async updateAlert(channel, ts, message, names) {
      const body = { channel, ts, text: message.text, blocks: message.blocks };
      await save(
        `${names.key}.update.${names.rootKey}.slack.json`,
        `${JSON.stringify(body, null, 2)}\n`,
      );
      return true;
    },
    async uploadToThread(_channel, ts, file) {
      // The post's ts here is `outbox:<key>`: the file is named after the alert's key.
      await save(`${ts.replace(/^outbox:/, "")}.${file.filename}`, file.content);
    },
    async filesInThread() {
      // An outbox has no thread to read: a rewrite of a file is no second delivery.
      return new Set<string>();
    },
    async permalink() {
      // An outbox has no messages to link: the words stay as they are.
      return null;
    },
  };
  return { digest, alert };
}

/** What Slack would be sent for a message's first part: the fields both outboxes write. */
function postBody(
  channel: string,
  post: Pick<SlackPost, "main" | "metadata">,
): { channel: string; text: string; blocks: unknown[]; metadata: SlackPost["metadata"] } {
  return { channel, text: post.main.text, blocks: post.main.blocks, metadata: post.metadata };
}

/** `reply_broadcast: true` on a reply that is also shown in the channel, as Slack takes it. */
function broadcast(options: { broadcast?: boolean }): { reply_broadcast?: true } {
  return options.broadcast ? { reply_broadcast: true } : {};
}
