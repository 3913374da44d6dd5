import type { SlackBlock, SlackMessage } from "../../../messages.js";
import { type AlertMessageInput, earlierFireWords } from "../../../render/alert/alert-view.js";
import { mrkdwnUrl } from "./escape-mrkdwn.js";

// A regressed fire's post names the earlier fire ("regressed: it fired Nov 10 and resolved
// Nov 12"). Its first message's permalink is only known by asking Slack, at send time, so the
// post is rendered and recorded with the words alone and a list of what to link; the send links
// each one it gets a permalink for, and leaves the words as they are otherwise.

/** An earlier fire named in a post: the key of its first message, and the words naming it. */
export interface FireLink {
  rootKey: string;
  text: string;
}

/** The earlier fires the evaluation's regressed fires name, each once. */
export function earlierFireLinks(input: AlertMessageInput): FireLink[] {
  const links = new Map<string, FireLink>();
  for (const t of input.transitions) {
    if (t.kind !== "fired" || !t.regressed) continue;
    const { fireKey } = t.regressed;
    if (!links.has(fireKey))
      links.set(fireKey, { rootKey: fireKey, text: earlierFireWords(t.regressed) });
  }
  return [...links.values()];
}

/** The message with each link's words, where they follow "regressed: ", linked to its URL. */
export function withFireLinks(
  message: SlackMessage,
  links: readonly (FireLink & { url: string })[],
): SlackMessage {
  if (links.length === 0) return message;
  // The words are already escaped mrkdwn (they stand in the message); only the URL is new.
  const link = (text: string) =>
    links.reduce(
      (out, l) =>
        out.replaceAll(`regressed: ${l.text}`, `regressed: <${mrkdwnUrl(l.url)}|${l.text}>`),
      text,
    );
  const blocks = message.blocks.map((block): SlackBlock => {
    const text = block.text as { type?: string; text?: string } | undefined;
    if (text?.type !== "mrkdwn" || typeof text.text !== "string") return block;
    return { ...block, text: { ...text, text: link(text.text) } };
  });
  return { text: message.text, blocks };
}
