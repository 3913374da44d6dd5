import type { OutboxFiles } from "../../deliver/outbox.js";
import type { EmailMessage } from "../../messages.js";
import type { EmailDestination, EmailSent } from "./email-clients.js";
import type { EmailGlobal } from "./email-config.js";

/**
 * Email's outbox: each mail as `<key>.eml`, its attachments as their files, measured against
 * `email.max_bytes` as the size cap would send it. nodemailer loads on the first mail.
 */
export function emailOutbox(files: OutboxFiles, global: EmailGlobal): EmailDestination {
  const composeEml = async (message: EmailMessage) =>
    (await import("./email-eml.js")).composeEml(message, global.from);
  return {
    maxBytes: global.maxBytes,
    async measure(message: EmailMessage): Promise<number> {
      return (await composeEml(message)).length;
    },
    async send(message: EmailMessage): Promise<EmailSent> {
      const key = message.messageId.replace(/^<|@.*$/g, "");
      await files.save(`${key}.eml`, await composeEml(message));
      // Inline charts live in the .eml; only files to download are written beside it.
      for (const attachment of message.attachments)
        if (attachment.cid === undefined) await files.save(attachment.filename, attachment.content);
      return { messageId: message.messageId, accepted: [...message.to], rejected: [] };
    },
  };
}
