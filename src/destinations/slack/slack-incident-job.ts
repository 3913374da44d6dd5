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
// Every step is a recorded part, so a retry or a takeover never posts or edits one twice; a
// post or reply that landed before its part was recorded (the process stopped in between) is
// found in the channel by its key, as a digest's is.

export interface SlackIncidentDeps {
  slack: { digest: SlackDestination; alert: SlackAlertDestination };
  logger: Logger;
  /** When the incident could first have been posted: the lookup after a crash starts there. */
  since: Date;
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
  const send: DeliveryJob["send"] = async (progress) => {
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
  };
  return {
    id: slackDestinationId(channel),
    send,
    // After a crash mid-send: the post found by its key, then the replies and lines it lacks.
    recover: recoverFrom("post", send, async (signal) =>
      deps.slack.digest.findPosted(channel, key, deps.since, signal),
    ),
  };
}

/** The resolution's Slack delivery: the incident's post edited green, then a reply under it. */
export function slackIncidentResolutionJob(
  key: string,
  incident: { key: string; ts: string | null; record: IncidentRecord },
  channel: string,
  deps: Pick<SlackIncidentDeps, "slack" | "since">,
): DeliveryJob {
  const { record } = incident;
  const thread = incident.ts;
  const send: DeliveryJob["send"] = async (progress) => {
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
  };
  return {
    id: slackDestinationId(channel),
    send,
    // After a crash mid-send: the reply found by its key in the incident's thread (or in the
    // channel, the thread gone), then the edit if it was not recorded.
    recover: recoverFrom("reply", send, async (signal) =>
      deps.slack.digest.findPosted(channel, key, deps.since, signal, thread ?? undefined),
    ),
  };
}

/**
 * A recovery after a crash mid-send: the `part` that may have landed, as recorded or else found
 * in Slack by its key, recorded; then what is left sent. Null when it never landed.
 */
function recoverFrom(
  part: string,
  send: DeliveryJob["send"],
  find: (signal: AbortSignal | undefined) => Promise<{ ts: string } | null>,
): NonNullable<DeliveryJob["recover"]> {
  return async (progress) => {
    const ts = progress.done.get(part) ?? (await find(progress.signal))?.ts ?? null;
    if (ts === null) return null;
    await progress.record(part, ts);
    return send(progress);
  };
}
