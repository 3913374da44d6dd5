import type { ConfigShapeKey, DestinationConfigPart } from "./destination-module.js";
import { EMAIL_CONFIG } from "./email/email-config.js";
import { MSTEAMS_CONFIG } from "./msteams/msteams-config.js";
import { PAGERDUTY_CONFIG } from "./pagerduty/pagerduty-config.js";
import type { DestinationKind, DestinationShapes } from "./shapes.js";
import { SLACK_CONFIG } from "./slack/slack-config.js";
import { WEBHOOK_CONFIG } from "./webhook/webhook-config.js";

// What the config needs of every kind, listed in registry.ts's order. The config's schema, its
// resolving and its rules read this, not registry.ts: loading a config (check-config, every
// command's first step) then loads no renderer, sender or outbox writer, ~90 modules fewer.

/** Each kind's config part, by kind. */
export const DESTINATION_CONFIGS: {
  [K in DestinationKind]: DestinationConfigPart<K, Pick<DestinationShapes[K], ConfigShapeKey>>;
} = {
  slack: SLACK_CONFIG,
  email: EMAIL_CONFIG,
  msteams: MSTEAMS_CONFIG,
  webhook: WEBHOOK_CONFIG,
  pagerduty: PAGERDUTY_CONFIG,
};

/** The kinds, in the order their deliveries go out. */
export const DESTINATION_KINDS = Object.keys(DESTINATION_CONFIGS) as DestinationKind[];
