import type { Logger } from "../../logger.js";
import type { EmailDestination } from "./email-clients.js";
import type { EmailGlobal } from "./email-config.js";
import type { SmtpDestination } from "./email-smtp.js";
import { parseSmtpUrl } from "./smtp-url.js";

/**
 * The SMTP destination, built with nodemailer on the first mail; null without an SMTP URL.
 * SMTP_URL is read now, so a bad one still stops start-up (exit 2) rather than the first digest.
 */
export function smtpOnFirstUse(
  global: EmailGlobal,
  logger: Logger,
): { digest: EmailDestination; alert: EmailDestination; close(): Promise<void> } | null {
  const { smtpUrl } = global;
  if (!smtpUrl) return null;
  parseSmtpUrl(smtpUrl);
  let built: Promise<SmtpDestination> | null = null;
  const load = () => {
    built ??= import("./email-smtp.js").then(({ createSmtpDestination }) =>
      createSmtpDestination({
        smtpUrl,
        from: global.from,
        maxBytes: global.maxBytes,
        logger,
      }),
    );
    return built;
  };
  const smtp: EmailDestination = {
    maxBytes: global.maxBytes,
    measure: async (message) => (await load()).measure(message),
    send: async (message) => (await load()).send(message),
  };
  return {
    digest: smtp,
    alert: smtp,
    async close() {
      (await built)?.close();
    },
  };
}
