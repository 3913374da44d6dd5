import type { Logger } from "../logger.js";
import type { Attachment, EmailMessage, SlackPost } from "../messages.js";
import type { DeliveryJob } from "./deliver-all.js";
import { emailDestinationId, slackDestinationId } from "./destination-ids.js";
import type { EmailDestination, SlackDestination } from "./types.js";

// How a digest's rendered messages are sent: to Slack, the post, its thread and the workbook,
// each part recorded as it goes, and found in the channel after a crash; by mail, one message
// whose id comes from the key, cut to the destination's size limit first.

/** A digest as rendered for each of its destinations; null where it has none. */
export interface DigestMessages {
  slack: { channel: string; post: SlackPost; file: Attachment | undefined } | null;
  email: EmailMessage | null;
}

/** What fits a mail under `maxBytes` (render/email/fit-email-to-size), handed in. */
export type FitEmail = (
  message: EmailMessage,
  cap: { maxBytes: number; measure(message: EmailMessage): Promise<number> },
) => Promise<{ message: EmailMessage; dropped: Attachment[]; fullBytes: number | null }>;

export interface DigestDeliveryDeps {
  slack: SlackDestination | null;
  email: EmailDestination | null;
  logger: Logger;
  fitEmail: FitEmail;
  /** No fire covers a period before it has ended: where to start looking for an earlier post. */
  since: Date;
}

/** The delivery jobs of a digest: Slack (post, thread, upload) and mail. */
export function digestDeliveryJobs(
  key: string,
  messages: DigestMessages,
  deps: DigestDeliveryDeps,
): DeliveryJob[] {
  const jobs: DeliveryJob[] = [];
  const slack = deps.slack;
  if (messages.slack && slack) {
    const { channel, post, file } = messages.slack;
    jobs.push({
      id: slackDestinationId(channel),
      send: async (progress) => ({
        slackTs: (await slack.post(channel, post, file, progress)).ts,
      }),
      recover: async (progress) => {
        const ts =
          progress.done.get("post") ??
          (await slack.findPosted(channel, key, deps.since, progress.signal))?.ts ??
          null;
        if (ts === null) return null;
        await progress.record("post", ts);
        // The thread replies and the upload the interrupted attempt did not get to.
        await slack.post(channel, post, file, progress);
        return { slackTs: ts };
      },
    });
  }
  const email = deps.email;
  const mail = messages.email;
  if (mail && email) {
    jobs.push({
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
        if (sent.rejected.length === 0) return { messageId: sent.messageId };
        return {
          messageId: sent.messageId,
          warning: `the SMTP server refused ${sent.rejected.join(", ")}; the others got the mail — check those addresses in email.to`,
        };
      },
    });
  }
  return jobs;
}
