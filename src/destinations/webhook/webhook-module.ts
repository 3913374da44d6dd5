import type { WebhookDelivery } from "../../messages.js";
import { type UrlDestinationShape, urlDestination } from "../url-destination.js";
import { webhookAlertBody } from "./messages/webhook-alert.js";
import { webhookDigestBody } from "./messages/webhook-digest.js";
import { webhookIncidentBody } from "./messages/webhook-incident.js";
import {
  WEBHOOK_CONFIG,
  type WebhookGlobal,
  type WebhookTarget,
  type webhookSchema,
} from "./webhook-config.js";
import { webhookOutbox } from "./webhook-outbox.js";
import {
  createWebhookSender,
  describeWebhookFailure,
  type WebhookSender,
} from "./webhook-sender.js";

/** The types the signed webhook works with (see DestinationShape). */
export type WebhookShape = UrlDestinationShape<
  typeof webhookSchema,
  WebhookGlobal,
  WebhookTarget,
  WebhookDelivery,
  WebhookSender
>;

/**
 * A signed webhook: the versioned JSON body POSTed per digest or alert evaluation, signed with
 * HMAC-SHA256, the slot key as Idempotency-Key. A receiver cannot be searched, so there is no
 * `recover`: a crash between send and record resends once, with the same key (ADR 0005).
 */
export const WEBHOOK = urlDestination<"webhook", WebhookShape>({
  config: WEBHOOK_CONFIG,
  urlField: "webhook.url",
  sender: createWebhookSender,
  outbox: webhookOutbox,
  probe: (target) => ({ url: target.url, describe: describeWebhookFailure(target.destination) }),
  renderDigest: ({ report, key }) => ({ body: JSON.stringify(webhookDigestBody(report, key)) }),
  renderAlert: ({ message, now }) => ({ body: JSON.stringify(webhookAlertBody(message, now)) }),
  renderIncident: (input) => ({ body: JSON.stringify(webhookIncidentBody(input)) }),
  send: (sender, target, key, message) => sender.send(target, key, message.body),
});
