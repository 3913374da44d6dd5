import type { DeliveryJob } from "../../deliver/deliver-all.js";
import type { Attachment, SlackPost } from "../../messages.js";
import type { DigestJobDeps } from "../destination-module.js";
import type { SlackDestination } from "./slack-clients.js";
import { slackDestinationId } from "./slack-id.js";

// How a digest's rendered message is sent to Slack: the post, its thread and the workbook,
// each part recorded as it goes, and found in the channel after a crash.

/** A digest as rendered for Slack. */
export interface SlackDigestMessage {
  channel: string;
  post: SlackPost;
  file: Attachment | undefined;
  /** The digest's chart PNGs, uploaded into the thread after the file. */
  charts?: readonly Attachment[];
}

/** The Slack delivery job of a digest: post, thread, upload. */
export function slackDigestJob(
  key: string,
  message: SlackDigestMessage,
  slack: SlackDestination,
  deps: Pick<DigestJobDeps, "since" | "reads">,
): DeliveryJob {
  const { channel, post, file, charts = [] } = message;
  return {
    id: slackDestinationId(channel),
    send: async (progress) => ({
      ref: (await slack.post(channel, post, file, progress, charts)).ts,
    }),
    recover: async (progress) => {
      const ts =
        progress.done.get("post") ??
        (await slack.findPosted(channel, key, deps.since, progress.signal, undefined, deps.reads))
          ?.ts ??
        null;
      if (ts === null) return null;
      await progress.record("post", ts);
      // The thread replies and the upload the interrupted attempt did not get to.
      await slack.post(channel, post, file, progress, charts);
      return { ref: ts };
    },
  };
}
