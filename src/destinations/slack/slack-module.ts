import type { DestinationModule } from "../destination-module.js";
import { renderSlackAlert, renderSlackAlertRoot } from "./messages/slack-alert.js";
import { renderSlackDigest } from "./messages/slack-digest.js";
import { earlierFireLinks } from "./messages/slack-fire-links.js";
import { withIncidentLine } from "./messages/slack-incident.js";
import { type SlackAlertMessage, slackAlertJob } from "./slack-alert-job.js";
import type { SlackAlertDestination, SlackDestination } from "./slack-clients.js";
import {
  SLACK_CONFIG,
  type SlackAlertTarget,
  type SlackDigestTarget,
  type SlackGlobal,
  type slackSchema,
} from "./slack-config.js";
import { type SlackDigestMessage, slackDigestJob } from "./slack-digest-job.js";
import { slackDestinationId } from "./slack-id.js";
import { slackOnFirstUse } from "./slack-on-first-use.js";
import { slackOutbox } from "./slack-outbox.js";

/** The types Slack works with (see DestinationShape). */
export interface SlackShape {
  schema: typeof slackSchema;
  global: SlackGlobal;
  digestTarget: SlackDigestTarget;
  alertTarget: SlackAlertTarget;
  address: { channel: string };
  digestMessage: SlackDigestMessage;
  alertMessage: SlackAlertMessage;
  clients: { digest: SlackDestination; alert: SlackAlertDestination };
}

/** Slack: a digest is a post with its thread and workbook; an alert a post, replies and edits. */
export const SLACK: DestinationModule<"slack", SlackShape> = {
  ...SLACK_CONFIG,
  id: ({ channel }) => slackDestinationId(channel),
  clients: slackOnFirstUse,
  outbox: (files) => slackOutbox(files),
  renderDigest: (target, { report, key, owners, workbook, charts }) => ({
    channel: target.channel,
    post: renderSlackDigest(report, { key, owners }),
    file: target.attachXlsx ? workbook : undefined,
    // The team's chart alone (the first): a thread of one image per project would bury the
    // conversation under uploads; the mail and the workbook carry every subject's.
    charts: charts.slice(0, 1).map((c) => ({
      filename: `${c.name}.png`,
      content: c.png,
      contentType: "image/png",
    })),
  }),
  renderAlert: ({ channel }, { message, now, threadKey, roots, broadcast }) => ({
    ...withLinks(earlierFireLinks(message)),
    channel,
    post: renderSlackAlert(message, now),
    threadKey,
    broadcast,
    updates: roots.map((root) => ({
      rootKey: root.rootKey,
      // The line an incident added to the first message stays through every later edit.
      message: root.incident
        ? withIncidentLine(
            renderSlackAlertRoot(message, root, now),
            root.incident.key,
            root.incident.channel,
          )
        : renderSlackAlertRoot(message, root, now),
    })),
  }),
  digestJob: slackDigestJob,
  alertJob: slackAlertJob,
};

const withLinks = <T>(links: T[]) => (links.length > 0 ? { links } : {});
