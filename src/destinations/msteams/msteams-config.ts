import * as z from "zod";
import { Secret } from "../../secret.js";
import { secretUrl } from "../../secret-text.js";
import { configPart } from "../config-part.js";
import { urlDestinationId } from "../url-destination-id.js";
import { urlTimeoutSection } from "../url-timeout-config.js";

// Microsoft Teams' part of the config: each digest or alert names the URL of a Teams workflow
// ("Post to a channel when a webhook request is received"), which carries its own token (the
// `sig=` of the URL), so it is a secret; the section at the top holds what they share.

/** `msteams:` at the top of the config file. */
const global = urlTimeoutSection("one post to a workflow", "Microsoft Teams destination");

const webhookUrl = secretUrl.describe(
  'The workflow\'s URL (Teams → channel → Workflows → "Post to a channel when a webhook request is received"), e.g. ${TEAMS_WEBHOOK_URL}. A secret: its sig= part lets anyone post.',
);

const digest = z
  .strictObject({ webhook_url: webhookUrl })
  .describe("Post the digest as an Adaptive Card to this Teams workflow.");

const alert = z
  .strictObject({ webhook_url: webhookUrl })
  .describe("Post alert changes as Adaptive Cards to this Teams workflow.");

export const msteamsSchema = { global, digest, alert };

/** The shared Teams settings, resolved. */
export interface MsteamsGlobal {
  timeoutMs: number;
}

/** A digest's or an alert's Teams workflow: its URL and the id it goes by without it. */
export interface MsteamsTarget {
  webhookUrl: Secret;
  destination: string;
}

function target(input: { webhook_url: string }): MsteamsTarget {
  const webhookUrl = new Secret(input.webhook_url);
  return { webhookUrl, destination: urlDestinationId("msteams", webhookUrl) };
}

/** The config as written → camelCase, the URL wrapped. */
export const resolveMsteams = {
  global: (input: z.output<typeof global>): MsteamsGlobal => ({ timeoutMs: input.timeout_ms }),
  digest: (input: z.output<typeof digest>): MsteamsTarget => target(input),
  alert: (input: z.output<typeof alert>): MsteamsTarget => target(input),
};

/** What the config needs of Teams (see DestinationConfigPart): each destination has its own URL. */
export const MSTEAMS_CONFIG = configPart("msteams", msteamsSchema, resolveMsteams);
