import type { DeliveryJob } from "../../deliver/deliver-all.js";
import type { AlertNotification, EmailMessage } from "../../messages.js";
import type { AlertJobDeps, DigestJobDeps } from "../destination-module.js";
import { opensFire } from "../fire-images.js";
import type { EmailDestination } from "./email-clients.js";
import { emailDestinationId } from "./email-id.js";
import { messageIdForKey } from "./email-message-id.js";
import { alertMailWithCharts } from "./messages/email-alert-mail.js";

// How a digest's or an alert's rendered mail is sent: one message whose id comes from the key,
// a digest's cut to the destination's size limit first.

/** An alert's notification as rendered for email. */
export type EmailAlertMessage = NonNullable<AlertNotification["email"]>;

/** The mail delivery job of a digest. */
export function emailDigestJob(
  key: string,
  mail: EmailMessage,
  email: EmailDestination,
  deps: Pick<DigestJobDeps, "fitEmail" | "logger">,
): DeliveryJob {
  return {
    id: emailDestinationId(mail.to),
    send: async () => {
      const sized = await deps.fitEmail(mail, {
        maxBytes: email.maxBytes,
        measure: (message) => email.measure(message),
      });
      if (sized.dropped.length > 0) {
        deps.logger.warn(
          {
            slot: key,
            bytes: sized.fullBytes,
            maxBytes: email.maxBytes,
            dropped: sized.dropped.map((a) => a.filename),
          },
          "mail over email.max_bytes: sending it without its attachment, with a note on how to get it",
        );
      }
      const sent = await email.send(sized.message);
      if (sent.rejected.length === 0) return { ref: sent.messageId };
      return {
        ref: sent.messageId,
        warning: `the SMTP server refused ${sent.rejected.join(", ")}; the others got the mail — check those addresses in email.to`,
      };
    },
  };
}

/**
 * The mail delivery job of an alert's notification; a fire's first mail shows its charts
 * inline (`images`), drawn for each attempt.
 */
export function emailAlertJob(
  key: string,
  email: EmailAlertMessage,
  emailOut: EmailDestination,
  deps: Pick<AlertJobDeps, "images"> = {},
): DeliveryJob {
  return {
    id: emailDestinationId(email.to),
    send: async () => {
      const { threadKey, regressedFrom, chartsAt, ...mail } = email;
      const charts =
        chartsAt && deps.images && opensFire(email) ? await deps.images.fireCharts() : [];
      const sent = await emailOut.send({
        ...mail,
        // A fire's charts, inline; nothing else is attached to an alert's mail.
        ...(chartsAt ? alertMailWithCharts({ ...mail, chartsAt }, charts) : { attachments: [] }),
        messageId: messageIdForKey(key),
        // A later mail of an incident follows its fire's, so mail clients thread them.
        ...(threadKey ? { inReplyTo: messageIdForKey(threadKey) } : {}),
        // A regressed fire opens its own thread but names the earlier fire's, which a reader finds.
        ...(regressedFrom?.length ? { references: regressedFrom.map(messageIdForKey) } : {}),
      });
      return { ref: sent.messageId };
    },
  };
}
