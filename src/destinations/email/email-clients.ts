import type { EmailMessage } from "../../messages.js";

// What a digest's and an alert's mails need from email: the real adapter (SMTP) and the outbox
// (.eml files) implement it, so the pipeline never knows which.

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
