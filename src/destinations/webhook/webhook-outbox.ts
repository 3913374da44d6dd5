import type { OutboxFiles } from "../../deliver/outbox.js";
import type { WebhookSender } from "./webhook-sender.js";

/**
 * The webhook's outbox: each body as `<key>.webhook.json`, indented for reading (what is sent
 * is the same JSON without the indent, signed when it is sent).
 */
export function webhookOutbox(files: OutboxFiles): WebhookSender {
  return {
    async send(_target, key, rawBody) {
      await files.save(`${key}.webhook.json`, `${JSON.stringify(JSON.parse(rawBody), null, 2)}\n`);
    },
  };
}
