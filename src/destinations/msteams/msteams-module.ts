import { probeUrl } from "../../deliver/http-post.js";
import type { TeamsDelivery } from "../../messages.js";
import type { DestinationModule } from "../destination-module.js";
import { targetOf } from "../url-target.js";
import {
  type MsteamsGlobal,
  type MsteamsTarget,
  msteamsSchema,
  resolveMsteams,
} from "./msteams-config.js";
import { msteamsOutbox } from "./msteams-outbox.js";
import { createTeamsSender, describeTeamsFailure, type TeamsSender } from "./teams-sender.js";

/** The types Microsoft Teams works with (see DestinationShape). */
export interface MsteamsShape {
  schema: typeof msteamsSchema;
  global: MsteamsGlobal;
  digestTarget: MsteamsTarget;
  alertTarget: MsteamsTarget;
  address: { destination: string };
  digestMessage: TeamsDelivery;
  alertMessage: TeamsDelivery;
  clients: { digest: TeamsSender; alert: TeamsSender };
}

/**
 * Microsoft Teams: an Adaptive Card posted to a Teams workflow per digest or alert
 * evaluation. A workflow cannot be searched, so there is no `recover` (ADR 0005).
 */
export const MSTEAMS: DestinationModule<"msteams", MsteamsShape> = {
  kind: "msteams",
  schema: msteamsSchema,
  resolve: resolveMsteams,
  envDefaults: {},
  credential: null,
  id: ({ destination }) => destination,
  clients: (global) => {
    const sender = createTeamsSender({ timeoutMs: global.timeoutMs });
    return { digest: sender, alert: sender, close: async () => {} };
  },
  probe: (target, global) =>
    probeUrl(
      { url: target.webhookUrl, describe: describeTeamsFailure(target.destination) },
      global.timeoutMs,
    ),
  outbox: (files) => {
    const outbox = msteamsOutbox(files);
    return { digest: outbox, alert: outbox };
  },
  digestJob: (key, message, sender, _deps, target) =>
    teamsJob(key, message, sender, target, "digest's msteams.webhook_url"),
  alertJob: (key, message, sender, _deps, target) =>
    teamsJob(key, message, sender, target, "alert's msteams.webhook_url"),
};

function teamsJob(
  key: string,
  message: TeamsDelivery,
  sender: TeamsSender,
  target: MsteamsTarget | null,
  field: string,
) {
  return {
    id: message.destination,
    send: async () => {
      const { webhookUrl, destination } = targetOf(message, target, field, key);
      await sender.send({ url: webhookUrl, destination }, key, message.card);
      return {};
    },
  };
}
