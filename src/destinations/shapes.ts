import type { EmailShape } from "./email/email-module.js";
import type { MsteamsShape } from "./msteams/msteams-module.js";
import type { PagerdutyShape } from "./pagerduty/pagerduty-module.js";
import type { SlackShape } from "./slack/slack-module.js";
import type { WebhookShape } from "./webhook/webhook-module.js";

// The kinds' types, by kind: types only, so the config's registry and the modules' can both
// name them without importing each other.

/** The types of each destination kind, by kind. */
export interface DestinationShapes {
  slack: SlackShape;
  email: EmailShape;
  msteams: MsteamsShape;
  webhook: WebhookShape;
  pagerduty: PagerdutyShape;
}

/** `"slack" | "email"`. */
export type DestinationKind = keyof DestinationShapes;
