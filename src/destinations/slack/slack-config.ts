import * as z from "zod";
import { Secret } from "../../secret.js";
import { headerSecret } from "../../secret-text.js";
import { configPart } from "../config-part.js";

// Slack's part of the config: the credentials every Slack destination shares (`slack:`), and
// what a digest's or an alert's `slack:` says. config/schema.ts composes these fragments; the
// token is marked secret here, so the derived secret paths include it.

/** `slack:` at the top of the config file. */
const global = z
  .strictObject({
    token: headerSecret
      .optional()
      .describe(
        "Bot token (xoxb-…); defaults to ${SLACK_BOT_TOKEN}. Needed by Slack destinations.",
      ),
    api_url: z
      .string()
      .optional()
      .describe("Slack Web API base; defaults to SLACK_API_URL or https://slack.com/api/."),
    app_token: headerSecret
      .refine((token) => token.startsWith("xapp-"), {
        message:
          "is not an app-level token: Socket Mode needs one that starts with xapp- (api.slack.com/apps → Basic Information → App-Level Tokens, scope connections:write), not the bot token (xoxb-…)",
      })
      .optional()
      .describe(
        "App-level token (xapp-…) for Socket Mode, so people can act on alerts from Slack; defaults to ${SLACK_APP_TOKEN}. Without it the daemon opens no connection to Slack.",
      ),
  })
  .default({})
  .describe("Slack credentials, shared by every Slack destination.");

const digest = z
  .strictObject({
    channel: z
      .string()
      .min(1)
      .describe(
        "Channel id (C0123ABCD, recommended) or #name (resolved once per run; renames break it).",
      ),
    attach_xlsx: z
      .boolean()
      .default(false)
      .describe("Upload the workbook into the digest's thread."),
  })
  .describe("Post the digest to this Slack channel.");

const alert = z
  .strictObject({
    channel: z.string().min(1).describe("Channel id (C0123ABCD, recommended) or #name."),
    mention: z
      .string()
      .nullable()
      .default(null)
      .describe('Who to mention when it fires or escalates, e.g. "<!subteam^S0123>".'),
  })
  .describe("Post alert changes to this Slack channel.");

export const slackSchema = { global, digest, alert };

/** The Slack credentials, resolved. */
export interface SlackGlobal {
  token: Secret | null;
  apiUrl: string | null;
  /** Socket Mode's app-level token; null opens no connection. */
  appToken: Secret | null;
}

/** A digest's Slack destination. */
export interface SlackDigestTarget {
  channel: string;
  attachXlsx: boolean;
}

/** An alert's Slack destination. */
export interface SlackAlertTarget {
  channel: string;
  mention: string | null;
}

/** The config as written → camelCase, the token wrapped. */
export const resolveSlack = {
  global: (input: z.output<typeof global>): SlackGlobal => ({
    token: input.token === undefined ? null : new Secret(input.token),
    apiUrl: input.api_url ?? null,
    appToken: input.app_token === undefined ? null : new Secret(input.app_token),
  }),
  digest: (input: z.output<typeof digest>): SlackDigestTarget => ({
    channel: input.channel,
    attachXlsx: input.attach_xlsx,
  }),
  alert: (input: z.output<typeof alert>): SlackAlertTarget => ({
    channel: input.channel,
    mention: input.mention,
  }),
};

/** What the config needs of Slack (see DestinationConfigPart). */
export const SLACK_CONFIG = configPart("slack", slackSchema, resolveSlack, {
  envDefaults: {
    token: "SLACK_BOT_TOKEN",
    api_url: "SLACK_API_URL",
    app_token: "SLACK_APP_TOKEN",
  },
  credential: { key: "token", variable: "SLACK_BOT_TOKEN" },
});
