import type { SlackAlertDestination, SlackDestination } from "../../deliver/types.js";
import type { DestinationModule } from "../destination-module.js";
import { type SlackAlertMessage, slackAlertJob } from "./slack-alert-job.js";
import {
  resolveSlack,
  type SlackAlertTarget,
  type SlackDigestTarget,
  type SlackGlobal,
  slackSchema,
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
  kind: "slack",
  schema: slackSchema,
  resolve: resolveSlack,
  envDefaults: { token: "SLACK_BOT_TOKEN", api_url: "SLACK_API_URL" },
  credential: { key: "token", variable: "SLACK_BOT_TOKEN" },
  id: ({ channel }) => slackDestinationId(channel),
  clients: slackOnFirstUse,
  outbox: (files) => slackOutbox(files),
  digestJob: slackDigestJob,
  alertJob: slackAlertJob,
};
