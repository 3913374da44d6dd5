import type { Block, KnownBlock } from "@slack/web-api";
import type { SlackBlock } from "../../messages.js";
import type { Secret } from "../../secret.js";
import type { SlackLogger } from "./slack-library-logger.js";

// The Web API calls that answer a button press (issue 24): read and edit the alert's first
// message, write a line in its thread, answer the presser alone, and read a user group's members. The
// SDK is loaded on the first press, so a daemon nobody presses never holds it.

/** What answering a press needs from Slack. */
export interface SlackActionsApi {
  updateMessage(channel: string, ts: string, text: string, blocks: SlackBlock[]): Promise<void>;
  postInThread(
    channel: string,
    threadTs: string,
    text: string,
    blocks: SlackBlock[],
  ): Promise<void>;
  /** A thread's first message as Slack holds it now, or null when it is gone (conversations.replies). */
  firstMessage(
    channel: string,
    threadTs: string,
  ): Promise<{ text: string; blocks: SlackBlock[] } | null>;
  /** A message only `user` sees (chat.postEphemeral: no public URL needed, unlike response_url). */
  postEphemeral(channel: string, user: string, text: string): Promise<void>;
  /** The user ids of a user group (S…). */
  groupMembers(group: string): Promise<string[]>;
}

/** The actions API over the bot token; each call retried as other Slack calls are. */
export function slackActionsApi(
  token: Secret,
  apiUrl: string | null,
  logger?: SlackLogger,
): SlackActionsApi {
  const load = () =>
    import("./slack-client.js").then(({ createSlackClients }) =>
      createSlackClients({ token, apiUrl, ...(logger ? { logger } : {}) }),
    );
  let loaded: ReturnType<typeof load> | null = null;
  const clients = () => {
    loaded ??= load();
    return loaded;
  };
  const blocks = (b: SlackBlock[]) => b as unknown as (KnownBlock | Block)[];
  return {
    async updateMessage(channel, ts, text, b) {
      const { writes, paced } = await clients();
      await paced("chat.update", () =>
        writes.chat.update({ channel, ts, text, blocks: blocks(b) }),
      );
    },
    async postInThread(channel, threadTs, text, b) {
      const { writes, paced } = await clients();
      await paced("chat.postMessage", () =>
        writes.chat.postMessage({
          channel,
          thread_ts: threadTs,
          text,
          blocks: blocks(b),
          unfurl_links: false,
        }),
      );
    },
    async firstMessage(channel, threadTs) {
      const { calls, paced } = await clients();
      const answer = await paced("conversations.replies", () =>
        calls.conversations.replies({ channel, ts: threadTs, limit: 1 }),
      );
      const first = answer.messages?.find((m) => m.ts === threadTs);
      return first
        ? { text: first.text ?? "", blocks: (first.blocks ?? []) as unknown as SlackBlock[] }
        : null;
    },
    async postEphemeral(channel, user, text) {
      const { writes, paced } = await clients();
      await paced("chat.postEphemeral", () => writes.chat.postEphemeral({ channel, user, text }));
    },
    async groupMembers(group) {
      const { calls, paced } = await clients();
      const answer = await paced("usergroups.users.list", () =>
        calls.usergroups.users.list({ usergroup: group }),
      );
      return answer.users ?? [];
    },
  };
}
