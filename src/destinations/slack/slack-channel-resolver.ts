import { SlackDeliveryError } from "../../errors.js";
import type { SlackClients, SlackLogger } from "./slack-client.js";
import { isChannelId, label, toSlackDeliveryError } from "./slack-errors.js";

/** Turns a configured channel (`C0123ABCD` or `#name`) into the id Slack calls need. */
export type ChannelResolver = (channel: string) => Promise<string>;

/**
 * Ids pass through untouched. Names are looked up in one listing of every channel the bot can
 * see (all pages), kept for the resolver's life, with a warning per name: a rename breaks a
 * name, never an id.
 */
export function createChannelResolver(
  clients: Pick<SlackClients, "calls" | "paced">,
  logger?: SlackLogger,
): ChannelResolver {
  let listing: Promise<Map<string, string>> | null = null;
  const warned = new Set<string>();

  return async (channel) => {
    if (isChannelId(channel)) return channel;
    if (!listing) {
      const current = listChannels(clients, channel);
      listing = current;
      // A failed listing (network, scope) is not cached: the next delivery asks again.
      current.catch(() => {
        if (listing === current) listing = null;
      });
    }
    const name = channel.replace(/^#/, "").toLowerCase();
    const id = (await listing).get(name);
    if (!id) {
      throw new SlackDeliveryError(
        `Slack has no channel ${label(channel)} that the bot can see (it may be private, archived or renamed) — invite the bot to it (/invite @yourbot) or use the channel id (C…)`,
        "channel_not_found",
        { method: "conversations.list", channel },
      );
    }
    if (!warned.has(name)) {
      warned.add(name);
      logger?.warn(
        { channel: label(channel), id },
        `Slack channel ${label(channel)} resolved to ${id}; put the id in the config instead — renaming the channel would break the name`,
      );
    }
    return id;
  };
}

async function listChannels(
  { calls: client, paced }: Pick<SlackClients, "calls" | "paced">,
  channel: string,
): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  let cursor: string | undefined;
  try {
    do {
      const pageCursor = cursor;
      const page = await paced("conversations.list", () =>
        client.conversations.list({
          exclude_archived: true,
          types: "public_channel,private_channel",
          limit: 200,
          ...(pageCursor ? { cursor: pageCursor } : {}),
        }),
      );
      for (const c of page.channels ?? []) {
        if (c.id && c.name) ids.set(c.name.toLowerCase(), c.id);
      }
      cursor = page.response_metadata?.next_cursor || undefined;
    } while (cursor);
  } catch (error) {
    throw toSlackDeliveryError(error, { method: "conversations.list", channel }, client.token);
  }
  return ids;
}
