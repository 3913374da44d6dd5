import type { SlackBlock } from "../../../messages.js";
import {
  type DigestNews,
  moreWords,
  NEWS_SHOWN,
  NEWS_TITLE,
  type NewsLine,
  NO_NEWS,
} from "../../../render/digest-news.js";
import { truncateText } from "../../../render/truncate-text.js";
import { escapeMrkdwn } from "./escape-mrkdwn.js";
import { TONE_MARK } from "./slack-delta-cue.js";
import { SLACK_LIMITS } from "./slack-limits.js";

// The news as Slack shows it: the message's first block (at most three lines and "and N more")
// and, lower down, the lines that did not fit there. Bad news mentions the project's owners.

export interface NewsOptions {
  /**
   * Who owns each project, by project id: Slack user ids (`U…`) and group ids (`S…`),
   * mentioned on a line of bad news about it, each at most once per message.
   */
  owners?: Readonly<Record<string, readonly string[]>>;
}

const NAME_CHARS = 60;
const LINE_CHARS = 300;
// The rest of the news is for the curious: it must not crowd the projects out of the message.
const MORE_CHARS = 1500;

const MARK: Record<NewsLine["kind"], string> = {
  silent: "\u26A0\uFE0F",
  alert: TONE_MARK.bad,
  unavailable: "\u26A0\uFE0F",
  worse: TONE_MARK.bad,
  better: TONE_MARK.good,
  changed: "\u2022",
};

/** The first block: the news, or `No significant change` and the two headline figures. */
export function newsBlock(news: DigestNews, options: NewsOptions): SlackBlock {
  if (news.lines.length === 0) {
    return mrkdwnSection(`*${NO_NEWS}* \u00b7 ${escapeMrkdwn(news.figures)}`);
  }
  const mentioned = new Set<string>();
  const lines = news.shown.map((line) => newsLine(line, options, mentioned));
  const more = moreWords(news);
  if (more !== "") lines.push(`\u2026 ${more} under _${NEWS_TITLE}_ below`);
  return mrkdwnSection(lines.join("\n"));
}

/** The news lines that did not fit in the first block; null when all did. */
export function moreNewsSection(news: DigestNews, options: NewsOptions): SlackBlock | null {
  if (news.more === 0) return null;
  // Owners already pinged in the first block are not pinged again.
  const mentioned = new Set<string>();
  for (const line of news.shown) newsLine(line, options, mentioned);
  let text = `*${NEWS_TITLE}* (continued)`;
  const rest = news.lines.slice(NEWS_SHOWN);
  let used = 0;
  for (const line of rest) {
    const next = `\n${newsLine(line, options, mentioned)}`;
    if (text.length + next.length > MORE_CHARS) break;
    text += next;
    used += 1;
  }
  if (used < rest.length) text += `\n\u2026 and ${rest.length - used} more`;
  return mrkdwnSection(text);
}

function newsLine(line: NewsLine, options: NewsOptions, mentioned: Set<string>): string {
  const name = escapeMrkdwn(truncateText(line.name, NAME_CHARS));
  const text = `${MARK[line.kind]} *${name}*${escapeMrkdwn(truncateText(line.what, LINE_CHARS))}`;
  if (line.tone !== "bad" || line.projectId === null) return text;
  const owners = (options.owners?.[line.projectId] ?? []).filter(
    (o) => ownerMention(o) !== "" && !mentioned.has(o),
  );
  for (const owner of owners) mentioned.add(owner);
  return owners.length === 0 ? text : `${text} ${owners.map(ownerMention).join(" ")}`;
}

/** `U…` / `W…` is a person, `S…` a user group; anything else is not a Slack id and is not sent. */
export function ownerMention(id: string): string {
  if (/^[UW][A-Z0-9]+$/.test(id)) return `<@${id}>`;
  if (/^S[A-Z0-9]+$/.test(id)) return `<!subteam^${id}>`;
  return "";
}

function mrkdwnSection(text: string): SlackBlock {
  return {
    type: "section",
    text: { type: "mrkdwn", text: truncateText(text, SLACK_LIMITS.sectionChars) },
  };
}
