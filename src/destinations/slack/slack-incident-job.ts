import type { DeliveryJob } from "../../deliver/deliver-all.js";
import type { Logger } from "../../logger.js";
import type { SlackMessage } from "../../messages.js";
import type { IncidentRecord } from "../../state/incidents.js";
import {
  slackIncidentPost,
  slackIncidentResolved,
  slackIncidentResolvedReply,
  withIncidentLine,
} from "./messages/slack-incident.js";
import type { SlackAlertDestination, SlackDestination } from "./slack-clients.js";
import { slackDestinationId } from "./slack-id.js";

// How an incident goes to Slack: its post with a reply per member, then the line on each
// member's own message; and, when its last member resolves, its post edited green and a reply.
// Every step is a recorded part, so a retry or a takeover never posts or edits one twice.

export interface SlackIncidentDeps {
  slack: { digest: SlackDestination; alert: SlackAlertDestination };
  logger: Logger;
  /** A member's own message as posted: its channel's ts and what it says now; null when not posted. */
  memberMessage(
    fireKey: string,
    channel: string,
  ): Promise<{ ts: string; message: SlackMessage } | null>;
}

/** The incident's Slack delivery: the post and its thread, then each member's line. */
export function slackIncidentJob(
  key: string,
  record: IncidentRecord,
  channel: string,
  deps: SlackIncidentDeps,
): DeliveryJob {
  return {
    id: slackDestinationId(channel),
    send: async (progress) => {
      const posted = await deps.slack.digest.post(
        channel,
        slackIncidentPost(key, record),
        undefined,
        progress,
      );
      for (const member of record.members) {
        const part = `link ${member.fireKey}`;
        if (!member.channel || progress.done.has(part)) continue;
        const own = await deps.memberMessage(member.fireKey, member.channel);
        if (own) {
          await deps.slack.alert.updateAlert(
            member.channel,
            own.ts,
            withIncidentLine(own.message, key, channel),
            { key, rootKey: member.fireKey },
            progress.signal,
          );
        } else {
          // Its own message never landed (given up): the incident's reply names it all the same.
          deps.logger.warn(
            { slot: key, member: member.fireKey },
            "an incident member has no message of its own to mark",
          );
        }
        await progress.record(part, null);
      }
      return { ref: posted.ts };
    },
  };
}

/** The resolution's Slack delivery: the incident's post edited green, then a reply under it. */
export function slackIncidentResolutionJob(
  key: string,
  incident: { key: string; ts: string | null; record: IncidentRecord },
  channel: string,
  deps: Pick<SlackIncidentDeps, "slack">,
): DeliveryJob {
  const { record } = incident;
  return {
    id: slackDestinationId(channel),
    send: async (progress) => {
      const thread = incident.ts;
      if (thread && !progress.done.has("edit")) {
        await deps.slack.alert.updateAlert(
          channel,
          thread,
          slackIncidentResolved(incident.key, record),
          { key, rootKey: incident.key },
          progress.signal,
        );
        await progress.record("edit", null);
      }
      const replied = progress.done.get("reply");
      if (replied) return { ref: replied };
      const posted = await deps.slack.alert.postAlert(
        channel,
        slackIncidentResolvedReply(key, record),
        thread,
        { signal: progress.signal },
      );
      await progress.record("reply", posted.ts);
      return { ref: posted.ts };
    },
  };
}
