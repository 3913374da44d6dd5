import type { Logger } from "../logger.js";
import type { AlertNotification } from "../messages.js";
import type { DeliveryJob } from "./deliver-all.js";
import { emailDestinationId, slackDestinationId } from "./destination-ids.js";
import { messageIdForKey } from "./email-message-id.js";
import type { EmailDestination, SlackAlertDestination, SlackDestination } from "./types.js";

// How an alert's recorded notification is sent: in Slack, the fires' first messages are
// edited first (a fire whose message is gone then gets this one as a new post, not a reply to
// nothing), then the message goes out; by mail, one message whose id comes from the key.

export interface AlertDeliveryDeps {
  slack: SlackAlertDestination | null;
  email: EmailDestination | null;
  logger: Logger;
  /** The ts of a fire's first message in a channel, or null when it was never posted. */
  threadTs: (rootKey: string, channel: string) => Promise<string | null>;
  /** Finds an earlier top-level post of a key (crash recovery of a fire's post). */
  findSlackPost?: SlackDestination["findPosted"];
  /** No message of the evaluation precedes this: where to start looking for one. */
  since: Date;
}

export { emailDestinationId, slackDestinationId } from "./destination-ids.js";

/** The delivery jobs of an alert's notification: Slack (edits, then the post) and mail. */
export function alertDeliveryJobs(
  key: string,
  notification: AlertNotification,
  deps: AlertDeliveryDeps,
): DeliveryJob[] {
  const jobs: DeliveryJob[] = [];
  const { slack, email } = notification;
  const slackOut = deps.slack;
  if (slack && slackOut) {
    const tsOf = (rootKey: string) => deps.threadTs(rootKey, slack.channel);
    jobs.push({
      id: slackDestinationId(slack.channel),
      send: async () => {
        let thread = slack.threadKey ? await tsOf(slack.threadKey) : null;
        // Edits first: a fire whose first message is gone gets this message as a new post.
        for (const update of slack.updates) {
          const ts = await tsOf(update.rootKey);
          if (!ts) continue;
          try {
            const names = { key, rootKey: update.rootKey };
            const found = await slackOut.updateAlert(slack.channel, ts, update.message, names);
            if (!found && update.rootKey === slack.threadKey) thread = null;
          } catch (error) {
            // The news is the message below; a failed edit must not hold it back.
            deps.logger.warn(
              { slot: key, root: update.rootKey, err: String(error) },
              "could not edit the alert's first message",
            );
          }
        }
        const posted = await slackOut.postAlert(slack.channel, slack.post, thread, {
          broadcast: slack.broadcast === true,
        });
        return { slackTs: posted.ts };
      },
      // After a crash mid-post: a fire is a top-level post that its key finds in the channel.
      ...(deps.findSlackPost && slack.threadKey === null
        ? {
            recover: async () => {
              const found = await deps.findSlackPost?.(slack.channel, key, deps.since);
              return found ? { slackTs: found.ts } : null;
            },
          }
        : {}),
    });
  }
  const emailOut = deps.email;
  if (email && emailOut) {
    jobs.push({
      id: emailDestinationId(email.to),
      send: async () => {
        const { threadKey, ...mail } = email;
        const sent = await emailOut.send({
          ...mail,
          attachments: [],
          messageId: messageIdForKey(key),
          // A later mail of an incident follows its fire's, so mail clients thread them.
          ...(threadKey ? { inReplyTo: messageIdForKey(threadKey) } : {}),
        });
        return { messageId: sent.messageId };
      },
    });
  }
  return jobs;
}
