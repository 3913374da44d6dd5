import type { ResolvedConfig } from "../config/types.js";
import { DESTINATION_KINDS } from "../destinations/config-registry.js";
import type { DestinationModule, DestinationShape } from "../destinations/destination-module.js";
import type { DESTINATIONS } from "../destinations/registry.js";
import type { DestinationKind } from "../destinations/shapes.js";
import { checkConfigCommand } from "./check-config.js";
import { loadCommandConfig } from "./command-context.js";
import { terminalWidth } from "./terminal-width.js";

export interface CheckConfigCliOptions {
  config?: string;
  online?: boolean;
}

/** Each configured destination its module can check on its own, once per destination. */
function urlProbes(config: ResolvedConfig, destinations: typeof DESTINATIONS) {
  const probes = new Map<
    string,
    { destination: string; usedBy: string; probe(): Promise<{ ok: boolean; message: string }> }
  >();
  // Every digest and alert, and the incidents' destinations, which are configured on their own.
  const users: { usedBy: string; targets: Partial<Record<DestinationKind, unknown>> }[] = [
    ...config.teams.flatMap((team) =>
      [...team.digests, ...team.alerts].map((item) => ({
        usedBy: `${team.name}/${item.name}`,
        targets: item,
      })),
    ),
    ...(config.incidents ? [{ usedBy: "incidents", targets: config.incidents }] : []),
  ];
  for (const { usedBy, targets } of users) {
    for (const kind of DESTINATION_KINDS) {
      const module = destinations[kind] as DestinationModule<string, DestinationShape>;
      const target = targets[kind];
      if (!target || !module.probe) continue;
      const destination = module.id(target);
      const probe = module.probe;
      if (!probes.has(destination)) {
        probes.set(destination, {
          destination,
          usedBy,
          probe: () => probe(target, config[kind]),
        });
      }
    }
  }
  return [...probes.values()];
}

/** `check-config [--online]`: loads the config (exit 2 with every problem listed), then checks it. */
export async function checkConfigCli(
  opts: CheckConfigCliOptions,
  out: (line: string) => void,
  now: () => Date = () => new Date(),
): Promise<number> {
  // Missing Slack or SMTP credentials are a note, not an error: the config is still valid, and
  // preview, run --outbox and demo need neither. --online checks what is set (the API key and
  // projects first, a newcomer's first step) and names what it skipped for want of the rest.
  const config = loadCommandConfig(opts, { requireCredentials: false });
  const width = terminalWidth();
  if (!opts.online) return checkConfigCommand({ config, now: now(), width }, out);

  // Only --online needs the clients (undici, the Slack SDK): offline checks start faster.
  const { createApiClient } = await import("../create-read-clients.js");
  const { DESTINATIONS } = await import("../destinations/registry.js");
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
        online: {
          api,
          ...(slackAuthTest ? { slackAuthTest } : {}),
          probes: urlProbes(config, DESTINATIONS),
        },
      },
      out,
    );
  } finally {
    await api.close();
  }
}
