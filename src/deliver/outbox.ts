import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Attachment, EmailMessage, SlackPost } from "../messages.js";
import type {
  EmailDestination,
  EmailSent,
  SlackAlertDestination,
  SlackDestination,
  SlackPosted,
} from "./types.js";

/** The ledger `start --outbox DIR` keeps in DIR, apart from the real one; `history --outbox` reads it. */
export function outboxLedgerPath(dir: string): string {
  return join(dir, "outbox-ledger.sqlite");
}

/**
 * `--outbox DIR`: what would be sent, written as files instead (README "Commands"): each Slack message
 * as `<key>.slack.json`, each email as `<key>.eml`, each workbook as `<name>.xlsx`.
 */
export interface Outbox {
  slack: SlackDestination;
  /** An alert message as `<key>.slack.json` (`thread_ts` when a reply); an edit of a fire's first message as `<key>.update.<fire key>.slack.json`. */
  slackAlerts: SlackAlertDestination;
  email: EmailDestination;
  /** Paths written so far, in order, for the command to list. */
  written: string[];
}

export function createOutbox(
  dir: string,
  composeEml: (message: EmailMessage) => Promise<Buffer>,
  /** `email.max_bytes`, so the outbox shows a mail as the size cap would send it. */
  maxBytes: number,
): Outbox {
  const written: string[] = [];
  const save = async (name: string, content: string | Buffer) => {
    await mkdir(dir, { recursive: true });
    const path = join(dir, safeFileName(name));
    await writeFile(path, content);
    // A workbook both attached to the mail and uploaded to Slack is one file: list it once.
    if (!written.includes(path)) written.push(path);
    return path;
  };

  const slack: SlackDestination = {
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

  const slackAlerts: SlackAlertDestination = {
    async postAlert(channel, post, threadTs, options = {}) {
      const key = post.metadata.event_payload.key;
      const body = {
        channel,
        text: post.main.text,
        blocks: post.main.blocks,
        metadata: post.metadata,
      };
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
  };

  const email: EmailDestination = {
    maxBytes,
    async measure(message: EmailMessage): Promise<number> {
      return (await composeEml(message)).length;
    },
    async send(message: EmailMessage): Promise<EmailSent> {
      const key = message.messageId.replace(/^<|@.*$/g, "");
      await save(`${key}.eml`, await composeEml(message));
      for (const attachment of message.attachments)
        await save(attachment.filename, attachment.content);
      return { messageId: message.messageId, accepted: [...message.to], rejected: [] };
    },
  };

  return { slack, slackAlerts, email, written };
}

/** Keys and file names are ours, but a team or period could still make an odd name: keep it a plain file name. */
function safeFileName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]/g, "_");
}

/** `reply_broadcast: true` on a reply that is also shown in the channel, as Slack takes it. */
function broadcast(options: { broadcast?: boolean }): { reply_broadcast?: true } {
  return options.broadcast ? { reply_broadcast: true } : {};
}
