/**
 * What the orchestrator needs from a destination. The real adapters (Slack Web API, SMTP) and
 * the outbox (files instead of sending) implement these, so `run-digest.ts` never knows which.
 */

/** A Block Kit block, as Slack's JSON (our renderers build them; Slack validates them). */
export type SlackBlock = { type: string } & Record<string, unknown>;

export interface SlackMetadata {
  event_type: "insights_digest" | "insights_alert";
  event_payload: Record<string, string>;
}

export interface SlackMessage {
  /** Notification fallback; names team, period and headline figures. */
  text: string;
  blocks: SlackBlock[];
}

/** A digest as posted: one message in the channel, details as replies in its thread. */
export interface SlackPost {
  main: SlackMessage;
  metadata: SlackMetadata;
  thread: SlackMessage[];
}

export interface Attachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

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

export interface EmailMessage {
  to: string[];
  subject: string;
  html: string;
  text: string;
  attachments: Attachment[];
  /** Deterministic, from the delivery key: `<key@insights-reporter>`. */
  messageId: string;
}

export interface EmailSent {
  messageId: string;
  accepted: string[];
  rejected: string[];
}

export interface EmailDestination {
  send(message: EmailMessage): Promise<EmailSent>;
}
