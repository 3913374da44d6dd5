import type { TeamsDelivery } from "../../messages.js";
import { type UrlDestinationShape, urlDestination } from "../url-destination.js";
import { renderTeamsAlert } from "./messages/teams-alert.js";
import { renderTeamsDigest } from "./messages/teams-digest.js";
import { renderTeamsIncident } from "./messages/teams-incident.js";
import {
  MSTEAMS_CONFIG,
  type MsteamsGlobal,
  type MsteamsTarget,
  type msteamsSchema,
} from "./msteams-config.js";
import { msteamsOutbox } from "./msteams-outbox.js";
import { createTeamsSender, describeTeamsFailure, type TeamsSender } from "./teams-sender.js";

/** The types Microsoft Teams works with (see DestinationShape). */
export type MsteamsShape = UrlDestinationShape<
  typeof msteamsSchema,
  MsteamsGlobal,
  MsteamsTarget,
  TeamsDelivery,
  TeamsSender
>;

/**
 * Microsoft Teams: an Adaptive Card posted to a Teams workflow per digest or alert
 * evaluation. A workflow cannot be searched, so there is no `recover` (ADR 0005).
 */
export const MSTEAMS = urlDestination<"msteams", MsteamsShape>({
  config: MSTEAMS_CONFIG,
  urlField: "msteams.webhook_url",
  sender: createTeamsSender,
  outbox: msteamsOutbox,
  probe: (target) => ({
    url: target.webhookUrl,
    describe: describeTeamsFailure(target.destination),
  }),
  renderDigest: ({ report, workbookWhere }) => ({
    card: renderTeamsDigest(report, { workbookWhere }),
  }),
  renderAlert: ({ message, now }) => ({ card: renderTeamsAlert(message, now) }),
  renderIncident: (input) => ({ card: renderTeamsIncident(input) }),
  send: (sender, { webhookUrl, destination }, key, message) =>
    sender.send({ url: webhookUrl, destination }, key, message.card),
});
