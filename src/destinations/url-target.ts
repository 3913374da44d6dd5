import { WebhookDeliveryError } from "../errors.js";

// A URL destination's message names its destination by id; the URL itself is read from the
// config at send time, so a recorded alert notification never stores it. When the config no
// longer has that destination (the URL changed or was removed), the message is not sent to a
// URL the operator has replaced.

/** The configured target the message was rendered for; throws, not worth retrying, when gone. */
export function targetOf<T extends { destination: string }>(
  message: { destination: string },
  target: T | null,
  field: string,
  key: string,
): T {
  if (target && target.destination === message.destination) return target;
  throw new WebhookDeliveryError(
    `${key}: its ${field} changed or was removed since the message was rendered, so ${message.destination} is not sent to — run it again with --force to send to the URL configured now`,
    null,
    { slot: key, destination: message.destination },
    { retry: false },
  );
}
