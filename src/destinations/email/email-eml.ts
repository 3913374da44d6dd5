import MailComposer from "nodemailer/lib/mail-composer/index.js";
import type Mail from "nodemailer/lib/mailer/index.js";
import type { EmailMessage } from "../../messages.js";

// One MIME message, composed the same way for sending, for measuring against the size cap, and
// for the outbox's `DIR/<key>.eml` files.

/** nodemailer's mail options for a message: our Message-ID, and headers that stop auto-replies. */
export function mailOptions(message: EmailMessage, from: string, date?: Date): Mail.Options {
  return {
    from,
    to: message.to,
    ...(message.cc && message.cc.length > 0 ? { cc: message.cc } : {}),
    subject: message.subject,
    text: message.text,
    html: message.html,
    messageId: message.messageId,
    ...(message.inReplyTo ? { inReplyTo: message.inReplyTo } : {}),
    ...(references(message).length > 0 ? { references: references(message) } : {}),
    attachments: message.attachments.map((a) => ({
      filename: a.filename,
      content: a.content,
      contentType: a.contentType,
      // An inline image goes in a multipart/related part the HTML names by its Content-ID.
      ...(a.cid ? { cid: a.cid, contentDisposition: "inline" as const } : {}),
    })),
    // RFC 3834, and Outlook's own header: vacation replies and out-of-office notices stay away
    // from a bot's sender address.
    headers: { "Auto-Submitted": "auto-generated", "X-Auto-Response-Suppress": "All" },
    ...(date ? { date } : {}),
  };
}

/** The message as an .eml file (RFC 5322 bytes), as the outbox writes it. */
export function composeEml(
  message: EmailMessage,
  from: string,
  options: { date?: Date } = {},
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    new MailComposer(mailOptions(message, from, options.date)).compile().build((error, eml) => {
      if (error) reject(error);
      else resolve(eml);
    });
  });
}

/** `References`: the mails this one follows up, the thread's first mail first. */
function references(message: EmailMessage): string[] {
  return [...(message.inReplyTo ? [message.inReplyTo] : []), ...(message.references ?? [])];
}
