import * as z from "zod";
import { Secret } from "../../secret.js";
import { secretText, secretUrl } from "../../secret-text.js";
import { configPart } from "../config-part.js";
import { urlDestinationId } from "../url-destination-id.js";
import { urlTimeoutSection } from "../url-timeout-config.js";

// The signed webhook's part of the config: each digest or alert names a URL and the secret its
// requests are signed with (docs/configuration.md, "Signed webhook"). Both are secrets: a URL
// often carries a token of its own.

/** `webhook:` at the top of the config file. */
const global = urlTimeoutSection("one request", "signed webhook");

/** How a request is signed: our own headers, or those of the Standard Webhooks specification. */
export const WEBHOOK_FORMATS = ["insights", "standard"] as const;

export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

/** A Standard Webhooks secret: `whsec_` and the key in base64. */
const STANDARD_SECRET = /^whsec_[A-Za-z0-9+/]+={0,2}$/;

const fields = {
  url: secretUrl.describe("Where to POST the JSON body, e.g. ${INSIGHTS_WEBHOOK_URL}."),
  secret: secretText.describe(
    "The HMAC-SHA256 key shared with the receiver, e.g. ${INSIGHTS_WEBHOOK_SECRET}; with format: standard, a whsec_<base64> secret.",
  ),
  format: z
    .enum(WEBHOOK_FORMATS)
    .default("insights")
    .describe(
      "insights: X-Insights-Timestamp and X-Insights-Signature (v1=<hex>). standard: webhook-id, webhook-timestamp and webhook-signature (v1,<base64>) as the Standard Webhooks specification says, for receivers that verify with its libraries.",
    ),
};

/** A Standard Webhooks receiver cannot verify with a secret of another form: refused here. */
function withSecretOfFormat<S extends z.ZodObject>(schema: S) {
  return schema.superRefine((value, ctx) => {
    const { format, secret } = value as { format: WebhookFormat; secret: string };
    if (format === "standard" && !STANDARD_SECRET.test(secret)) {
      ctx.addIssue({
        code: "custom",
        path: ["secret"],
        message:
          "format: standard needs a Standard Webhooks secret: whsec_ followed by the key in base64 (the receiver's library shows it, or make one with: echo whsec_$(openssl rand -base64 32))",
      });
    }
  });
}

const digest = withSecretOfFormat(z.strictObject(fields)).describe(
  "POST the digest as signed JSON (docs/webhook-v1.schema.json) to this URL.",
);

const alert = withSecretOfFormat(z.strictObject(fields)).describe(
  "POST alert changes as signed JSON (docs/webhook-v1.schema.json) to this URL.",
);

export const webhookSchema = { global, digest, alert };

/** The shared webhook settings, resolved. */
export interface WebhookGlobal {
  timeoutMs: number;
}

/** A digest's or an alert's webhook: URL, signing secret, how it signs and the id it goes by. */
export interface WebhookTarget {
  url: Secret;
  secret: Secret;
  destination: string;
  format: WebhookFormat;
}

function target(input: { url: string; secret: string; format: WebhookFormat }): WebhookTarget {
  const url = new Secret(input.url);
  return {
    url,
    secret: new Secret(input.secret),
    destination: urlDestinationId("webhook", url),
    format: input.format,
  };
}

/** The config as written → camelCase, URL and secret wrapped. */
export const resolveWebhook = {
  global: (input: z.output<typeof global>): WebhookGlobal => ({ timeoutMs: input.timeout_ms }),
  digest: (input: z.output<typeof digest>): WebhookTarget => target(input),
  alert: (input: z.output<typeof alert>): WebhookTarget => target(input),
};

/** What the config needs of webhooks (see DestinationConfigPart): each destination has its own URL. */
export const WEBHOOK_CONFIG = configPart("webhook", webhookSchema, resolveWebhook);
