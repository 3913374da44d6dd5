import type { Attachment, EmailMessage, SlackPost } from "../messages.js";

// What the orchestrator needs from a destination. The real adapters (Slack Web API, SMTP) and
// the outbox (files instead of sending) implement these, so `run-digest.ts` never knows which.

export interface SlackPosted {
  channel: string;
  ts: string;
}

export interface SlackDestination {
  /** Posts the message and its thread replies, and uploads `file` into the thread. */
  post(channel: string, post: SlackPost, file?: Attachment): Promise<SlackPosted>;
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
