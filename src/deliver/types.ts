import type { Attachment, EmailMessage, SlackPost } from "../messages.js";

// What the orchestrator needs from a destination. The real adapters (Slack Web API, SMTP) and
// the outbox (files instead of sending) implement these, so `run-digest.ts` never knows which.

export interface SlackPosted {
  channel: string;
  ts: string;
}

/**
 * The parts of one delivery already done (`post` with its ts, `thread 1`, `upload`), kept in the
 * ledger as each is done, so an attempt after a crash sends only what is missing.
 */
export interface DeliveryProgress {
  done: ReadonlyMap<string, string | null>;
  record(part: string, ref: string | null): void;
}

export interface SlackDestination {
  /**
   * Posts the message and its thread replies, and uploads `file` into the thread; with
   * `progress`, skips the parts already done and records each one it does.
   */
  post(
    channel: string,
    post: SlackPost,
    file?: Attachment,
    progress?: DeliveryProgress,
  ): Promise<SlackPosted>;
  /** An earlier post of this key in the channel since `since` (crash recovery), or null. */
  findPosted(channel: string, key: string, since: Date): Promise<SlackPosted | null>;
}

export interface EmailSent {
  messageId: string;
  accepted: string[];
  rejected: string[];
}

export interface EmailDestination {
  /** Mails over this many composed bytes go without their attachments (`email.max_bytes`). */
  maxBytes: number;
  /** The size of the message as it would be sent (composed MIME bytes). */
  measure(message: EmailMessage): Promise<number>;
  send(message: EmailMessage): Promise<EmailSent>;
}
