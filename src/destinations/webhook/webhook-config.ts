import { z } from "zod";
import { Secret } from "../../secret.js";
import { secretText, secretUrl } from "../../secret-text.js";
import { urlDestinationId } from "../url-destination-id.js";
import { urlTimeoutSection } from "../url-timeout-config.js";

// The signed webhook's part of the config: each digest or alert names a URL and the secret its
// requests are signed with (docs/configuration.md, "Signed webhook"). Both are secrets: a URL
// often carries a token of its own.

/** `webhook:` at the top of the config file. */
const global = urlTimeoutSection("one request", "signed webhook");

const fields = {
  url: secretUrl.describe("Where to POST the JSON body, e.g. ${INSIGHTS_WEBHOOK_URL}."),
  secret: secretText.describe(
    "The HMAC-SHA256 key of X-Insights-Signature, shared with the receiver, e.g. ${INSIGHTS_WEBHOOK_SECRET}.",
  ),
};

const digest = z
  .strictObject(fields)
  .describe("POST the digest as signed JSON (docs/webhook-v1.schema.json) to this URL.");

const alert = z
  .strictObject(fields)
  .describe("POST alert changes as signed JSON (docs/webhook-v1.schema.json) to this URL.");

export const webhookSchema = { global, digest, alert };

/** The shared webhook settings, resolved. */
export interface WebhookGlobal {
  timeoutMs: number;
}

/** A digest's or an alert's webhook: URL, signing secret and the id it goes by. */
export interface WebhookTarget {
  url: Secret;
  secret: Secret;
  destination: string;
}

function target(input: { url: string; secret: string }): WebhookTarget {
  const url = new Secret(input.url);
  return { url, secret: new Secret(input.secret), destination: urlDestinationId("webhook", url) };
}

/** The config as written → camelCase, URL and secret wrapped. */
export const resolveWebhook = {
  global: (input: z.output<typeof global>): WebhookGlobal => ({ timeoutMs: input.timeout_ms }),
  digest: (input: z.output<typeof digest>): WebhookTarget => target(input),
  alert: (input: z.output<typeof alert>): WebhookTarget => target(input),
};
