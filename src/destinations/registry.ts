import { DESTINATION_KINDS } from "./config-registry.js";
import type { DestinationModule } from "./destination-module.js";
import { EMAIL } from "./email/email-module.js";
import { MSTEAMS } from "./msteams/msteams-module.js";
import { PAGERDUTY } from "./pagerduty/pagerduty-module.js";
import type { DestinationKind, DestinationShapes } from "./shapes.js";
import { SLACK } from "./slack/slack-module.js";
import { WEBHOOK } from "./webhook/webhook-module.js";

// Every destination kind, listed once. A new kind is a folder beside slack/ and email/, one
// line in `DestinationShapes` and one in `DESTINATIONS`; the types below then make the compiler
// name every place that must handle it (the config's fields, the clients, the renderings).

export type { DestinationKind, DestinationShapes } from "./shapes.js";

/** One entry per kind: a kind without one does not compile. */
export type PerDestination<T extends { [K in DestinationKind]: unknown }> = {
  [K in DestinationKind]: T[K];
};

/** A destination's resolved shared settings, its digest and alert targets, by kind. */
export type GlobalOf<K extends DestinationKind> = DestinationShapes[K]["global"];
export type DigestTargetOf<K extends DestinationKind> = DestinationShapes[K]["digestTarget"];
export type AlertTargetOf<K extends DestinationKind> = DestinationShapes[K]["alertTarget"];

/** The clients that send digests (or alerts), one per kind; null where it cannot send. */
export type DigestClients = {
  [K in DestinationKind]: DestinationShapes[K]["clients"]["digest"] | null;
};
export type AlertClients = {
  [K in DestinationKind]: DestinationShapes[K]["clients"]["alert"] | null;
};

/** A digest's (or an alert's) destinations as configured, by kind; null where it has none. */
export type DigestTargets = { [K in DestinationKind]: DigestTargetOf<K> | null };
export type AlertTargets = { [K in DestinationKind]: AlertTargetOf<K> | null };

/** A digest as rendered for each destination kind; null where it has none. */
export type DigestMessages = {
  [K in DestinationKind]: DestinationShapes[K]["digestMessage"] | null;
};

export const DESTINATIONS: { [K in DestinationKind]: DestinationModule<K, DestinationShapes[K]> } =
  { slack: SLACK, email: EMAIL, msteams: MSTEAMS, webhook: WEBHOOK, pagerduty: PAGERDUTY };

export { DESTINATION_KINDS } from "./config-registry.js";

/** No client for any kind: a run that sends nothing (`preview`). */
export function noClients(): { [K in DestinationKind]: null } {
  return Object.fromEntries(DESTINATION_KINDS.map((kind) => [kind, null])) as {
    [K in DestinationKind]: null;
  };
}
