import { checkConfigCommand } from "./check-config.js";
import { loadCommandConfig, terminalWidth } from "./command-context.js";

export interface CheckConfigCliOptions {
  config?: string;
  online?: boolean;
}

/** `check-config [--online]`: loads the config (exit 2 with every problem listed), then checks it. */
export async function checkConfigCli(
  opts: CheckConfigCliOptions,
  out: (line: string) => void,
  now: () => Date = () => new Date(),
): Promise<number> {
  // Offline, missing Slack or SMTP credentials are a note, not an error: the config is still
  // valid, and preview, run --outbox and demo need neither. --online checks what sending needs.
  const config = loadCommandConfig(opts, { requireCredentials: opts.online === true });
  const width = terminalWidth();
  if (!opts.online) return checkConfigCommand({ config, now: now(), width }, out);

  // Only --online needs the clients (undici, the Slack SDK): offline checks start faster.
  const { createApiClient } = await import("../create-deps.js");
  const { createSlackClient } = await import("../destinations/slack/slack-client.js");
  const { toSlackDeliveryError } = await import("../destinations/slack/slack-errors.js");
  const api = createApiClient(config);
  const token = config.slack.token;
  const slackAuthTest = token
    ? async () => {
        const slack = createSlackClient({ token, apiUrl: config.slack.apiUrl, retries: 1 });
        try {
          const result = await slack.auth.test();
          return { team: result.team ?? "?", user: result.user ?? "?" };
        } catch (error) {
          throw toSlackDeliveryError(error, { method: "auth.test", channel: null }, token.reveal());
        }
      }
    : undefined;
  try {
    return await checkConfigCommand(
      {
        config,
        now: now(),
        width,
        online: { api, ...(slackAuthTest ? { slackAuthTest } : {}) },
      },
      out,
    );
  } finally {
    await api.close();
  }
}
