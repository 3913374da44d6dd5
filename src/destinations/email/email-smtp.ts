import nodemailer from "nodemailer";
import type SMTPTransport from "nodemailer/lib/smtp-transport/index.js";
import type { Logger } from "../../logger.js";
import type { EmailMessage } from "../../messages.js";
import type { Secret } from "../../secret.js";
import type { EmailDestination, EmailSent } from "./email-clients.js";
import { composeEml, mailOptions } from "./email-eml.js";
import { loginSecrets, smtpError } from "./email-errors.js";
import { countedSocket } from "./smtp-reply-cap.js";
import { parseSmtpUrl } from "./smtp-url.js";

// The email destination over SMTP (nodemailer): `smtp://` upgrades with STARTTLS where the
// server offers it, `smtps://` is TLS from the start. One connection per message, so a daemon
// holds no idle socket between digests.

export interface SmtpDestinationOptions {
  /** `smtp://user:pass@host:587` or `smtps://user:pass@host:465`. */
  smtpUrl: Secret;
  /** The From header, e.g. `Test insights <insights@example.com>`. */
  from: string;
  /** Above this size (composed bytes) the caller sends a mail without its attachments (`email.max_bytes`). */
  maxBytes: number;
  /** Merged over what the URL gives, e.g. `{ ignoreTLS: true }` in tests, or timeouts. */
  transportOptions?: SMTPTransport.Options;
  logger?: Logger;
}

export type SmtpDestination = EmailDestination & {
  /** Closes the transport; sends after this fail. */
  close(): void;
};

/** An email destination that sends through the SMTP server of `smtpUrl`. */
export function createSmtpDestination(options: SmtpDestinationOptions): SmtpDestination {
  const server = parseSmtpUrl(options.smtpUrl);
  const transport = nodemailer.createTransport({
    host: server.host,
    port: server.port,
    secure: server.secure,
    ...(server.auth ? { auth: server.auth } : {}),
    // nodemailer waits minutes by default; a digest should fail in time to be retried.
    connectionTimeout: 30_000,
    greetingTimeout: 30_000,
    socketTimeout: 60_000,
    // Our socket, so that a server's endless reply is cut off after a few KiB.
    getSocket: countedSocket(server.host, server.port),
    ...options.transportOptions,
  });
  const where = {
    endpoint: `${server.host}:${server.port}`,
    secrets: server.auth
      ? loginSecrets(server.auth.user, server.auth.pass, server.rawPassword)
      : [],
  };
  const { logger } = options;

  return {
    maxBytes: options.maxBytes,
    async measure(message: EmailMessage): Promise<number> {
      return (await composeEml(message, options.from)).length;
    },
    async send(message: EmailMessage): Promise<EmailSent> {
      let info: SMTPTransport.SentMessageInfo;
      try {
        info = await transport.sendMail(mailOptions(message, options.from));
      } catch (error) {
        throw smtpError(error, where);
      }
      const accepted = addresses(info.accepted);
      const rejected = addresses(info.rejected);
      if (rejected.length > 0) {
        logger?.warn(
          { messageId: message.messageId, accepted, rejected },
          "the SMTP server refused some recipients; the others got the mail — check those addresses in email.to",
        );
      }
      return { messageId: message.messageId, accepted, rejected };
    },
    close() {
      transport.close();
    },
  };
}

function addresses(list: readonly (string | { address: string })[] | undefined): string[] {
  return (list ?? []).map((a) => (typeof a === "string" ? a : a.address));
}
