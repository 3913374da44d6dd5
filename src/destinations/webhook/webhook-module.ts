import { probeUrl } from "../../deliver/http-post.js";
import type { WebhookDelivery } from "../../messages.js";
import type { DestinationModule } from "../destination-module.js";
import { targetOf } from "../url-target.js";
import {
  resolveWebhook,
  type WebhookGlobal,
  type WebhookTarget,
  webhookSchema,
} from "./webhook-config.js";
import { webhookOutbox } from "./webhook-outbox.js";
import {
  createWebhookSender,
  describeWebhookFailure,
  type WebhookSender,
} from "./webhook-sender.js";

/** The types the signed webhook works with (see DestinationShape). */
export interface WebhookShape {
  schema: typeof webhookSchema;
  global: WebhookGlobal;
  digestTarget: WebhookTarget;
  alertTarget: WebhookTarget;
  address: { destination: string };
  digestMessage: WebhookDelivery;
  alertMessage: WebhookDelivery;
  clients: { digest: WebhookSender; alert: WebhookSender };
}

/**
 * A signed webhook: the versioned JSON body POSTed per digest or alert evaluation, signed with
 * HMAC-SHA256, the slot key as Idempotency-Key. A receiver cannot be searched, so there is no
 * `recover`: a crash between send and record resends once, with the same key (ADR 0005).
 */
export const WEBHOOK: DestinationModule<"webhook", WebhookShape> = {
  kind: "webhook",
  schema: webhookSchema,
  resolve: resolveWebhook,
  envDefaults: {},
  credential: null,
  id: ({ destination }) => destination,
  clients: (global) => {
    const sender = createWebhookSender({ timeoutMs: global.timeoutMs });
    return { digest: sender, alert: sender, close: async () => {} };
  },
  probe: (target, global) =>
    probeUrl(
      { url: target.url, describe: describeWebhookFailure(target.destination) },
      global.timeoutMs,
    ),
  outbox: (files) => {
    const outbox = webhookOutbox(files);
    return { digest: outbox, alert: outbox };
  },
  digestJob: (key, message, sender, _deps, target) =>
    webhookJob(key, message, sender, target, "digest's webhook.url"),
  alertJob: (key, message, sender, _deps, target) =>
    webhookJob(key, message, sender, target, "alert's webhook.url"),
};

function webhookJob(
  key: string,
  message: WebhookDelivery,
  sender: WebhookSender,
  target: WebhookTarget | null,
  field: string,
) {
  return {
    id: message.destination,
    send: async () => {
      await sender.send(targetOf(message, target, field, key), key, message.body);
      return {};
    },
  };
}
