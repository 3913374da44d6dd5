import type { Logger } from "../../logger.js";
import type { SharedLimits } from "../../state/shared-limits.js";
import type { SlackAlertDestination, SlackDestination } from "./slack-clients.js";
import type { SlackGlobal } from "./slack-config.js";

// The Slack SDK is loaded when a destination is first used, not when the clients are built: a
// daemon at rest, or one writing to an outbox, never holds it.

/**
 * Both Slack destinations over one set of clients, built with the SDK on the first call; null
 * without a token. With `shared`, Slack's limits and 429 holds are the replicas' together;
 * with `foreground`, a Slack that cannot be reached fails at once (`SlackClientOptions`).
 */
export function slackOnFirstUse(
  global: SlackGlobal,
  logger: Logger,
  context: { shared?: SharedLimits | null; foreground?: boolean } = {},
): { digest: SlackDestination; alert: SlackAlertDestination; close(): Promise<void> } | null {
  const { token, apiUrl } = global;
  const { shared, foreground = false } = context;
  if (!token) return null;
  let built: Promise<{ digests: SlackDestination; alerts: SlackAlertDestination }> | null = null;
  const load = () => {
    built ??= (async () => {
      const [{ createSlackClients }, { createSlackDestination }, { createSlackAlertDestination }] =
        await Promise.all([
          import("./slack-client.js"),
          import("./slack-destination.js"),
          import("./slack-alert-destination.js"),
        ]);
      const clients = createSlackClients({
        token,
        apiUrl,
        logger,
        foreground,
        ...(shared ? { shared } : {}),
      });
      const digests = createSlackDestination({ clients, logger });
      return {
        digests,
        alerts: createSlackAlertDestination(clients, logger, { findPosted: digests.findPosted }),
      };
    })();
    return built;
  };
  const digest: SlackDestination = {
    post: async (...args) => (await load()).digests.post(...args),
    findPosted: async (...args) => (await load()).digests.findPosted(...args),
  };
  const alert: SlackAlertDestination = {
    postAlert: async (...args) => (await load()).alerts.postAlert(...args),
    updateAlert: async (...args) => (await load()).alerts.updateAlert(...args),
    uploadToThread: async (...args) => (await load()).alerts.uploadToThread(...args),
    filesInThread: async (...args) => (await load()).alerts.filesInThread(...args),
    permalink: async (...args) => (await load()).alerts.permalink(...args),
    findPosted: async (...args) => (await load()).alerts.findPosted(...args),
  };
  return { digest, alert, close: async () => {} };
}
