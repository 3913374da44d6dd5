import type { SlackBlock } from "../../../messages.js";
import { truncateText } from "../../../render/truncate-text.js";
import { SLACK_LIMITS } from "./slack-limits.js";

/** A context block of small print lines (already mrkdwn); null when there are none. */
export function contextBlock(lines: readonly string[]): SlackBlock | null {
  const elements = lines
    .filter((l) => l !== "")
    .slice(0, SLACK_LIMITS.contextElements)
    .map((text) => ({ type: "mrkdwn", text: truncateText(text, SLACK_LIMITS.sectionChars) }));
  return elements.length > 0 ? { type: "context", elements } : null;
}
