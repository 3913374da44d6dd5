import type { CardElement } from "../../../messages.js";
import {
  type DigestNews,
  moreWords,
  NEWS_SHOWN,
  NEWS_TITLE,
  type NewsLine,
  NO_NEWS,
} from "../../../render/digest-news.js";
import { truncateText } from "../../../render/truncate-text.js";
import { type CardColour, richText } from "./card-parts.js";

// The news as a Teams card shows it: at most three lines at the top, and lower down the lines
// that did not fit there. The lines and their order are the digest's news model; only the
// marks and colours are Teams'.

const NAME_CHARS = 60;
const LINE_CHARS = 300;
/** The rest of the news is for the curious: it must not crowd the projects out of the card. */
const MORE_LINES = 12;

const MARK: Record<NewsLine["kind"], string> = {
  silent: "\u26A0\uFE0F",
  alert: "\u{1F534}",
  unavailable: "\u26A0\uFE0F",
  worse: "\u{1F534}",
  better: "\u{1F7E2}",
  changed: "\u2022",
};

const COLOUR: Record<NewsLine["kind"], CardColour> = {
  silent: "attention",
  alert: "attention",
  unavailable: "warning",
  worse: "attention",
  better: "good",
  changed: "default",
};

/** The card's first element: the news, or `No significant change` and the two headline figures. */
export function newsBlocks(news: DigestNews): CardElement[] {
  if (news.lines.length === 0) {
    return [richText([{ text: NO_NEWS, bold: true }, ` \u00b7 ${news.figures}`])];
  }
  const lines = news.shown.map((line) => newsLine(line));
  const more = moreWords(news);
  if (more !== "")
    lines.push(
      richText([`\u2026 ${more} under `, { text: NEWS_TITLE, bold: true }, " below"], {
        spacing: "none",
      }),
    );
  return lines;
}

/** The news lines that did not fit at the top; empty when all did. */
export function moreNewsBlocks(news: DigestNews): CardElement[] {
  if (news.more === 0) return [];
  const rest = news.lines.slice(NEWS_SHOWN);
  const shown = rest.slice(0, MORE_LINES).map((line) => newsLine(line));
  const left = rest.length - shown.length;
  return [
    richText([{ text: `${NEWS_TITLE} (continued)`, bold: true }], { separator: true }),
    ...shown,
    ...(left > 0 ? [richText([`\u2026 and ${left} more`], { spacing: "none" })] : []),
  ];
}

function newsLine(line: NewsLine): CardElement {
  return richText(
    [
      `${MARK[line.kind]} `,
      { text: truncateText(line.name, NAME_CHARS), bold: true },
      { text: truncateText(line.what, LINE_CHARS), colour: COLOUR[line.kind] },
    ],
    { spacing: "none" },
  );
}
