import type { AdaptiveCard, CardElement, TeamsMessage } from "../../../messages.js";
import { truncateText } from "../../../render/truncate-text.js";

// The pieces every Teams card is made of. Text that comes from the API or the config (project,
// team and alert names, error messages) only ever goes into a TextRun: Adaptive Cards draw a
// TextRun as typed, with no Markdown, so a name like `**x** [y](https://…)` cannot turn into
// markup or a link. Mentions in Teams need an `msteams.entities` entry naming the person; these
// cards carry none, so an `<at>…</at>` in a name is only text. Bold, colour and links are the
// TextRun's own properties, never Markdown.

/** Teams' limit for a message carrying a card, in bytes of its JSON. */
export const TEAMS_CARD_BYTES = 28 * 1024;

/** The newest schema Teams renders. */
export const CARD_VERSION = "1.5";

const CARD_SCHEMA = "http://adaptivecards.io/schemas/adaptive-card.json";

/** The colours of Adaptive Cards a host maps to its theme; `default` is the text colour. */
export type CardColour = "default" | "good" | "warning" | "attention" | "accent";

/** One run of text and how it looks. */
export interface Run {
  text: string;
  bold?: boolean;
  colour?: CardColour;
  subtle?: boolean;
  size?: "small" | "default" | "medium" | "large";
  /** Opens this URL when tapped. */
  url?: string;
}

/** A TextRun: text as typed, never Markdown. Control characters are dropped. */
export function textRun(run: Run): CardElement {
  return {
    type: "TextRun",
    text: plainText(run.text),
    ...(run.bold ? { weight: "bolder" } : {}),
    ...(run.colour && run.colour !== "default" ? { color: run.colour } : {}),
    ...(run.subtle ? { isSubtle: true } : {}),
    ...(run.size && run.size !== "default" ? { size: run.size } : {}),
    ...(run.url ? { selectAction: { type: "Action.OpenUrl", url: run.url } } : {}),
  };
}

/** A line (or paragraph) of runs; a plain string is one run. */
export function richText(runs: readonly (Run | string)[], options: Spacing = {}): CardElement {
  return {
    type: "RichTextBlock",
    inlines: runs
      .map((r) => (typeof r === "string" ? { text: r } : r))
      .filter((r) => r.text !== "")
      .map(textRun),
    ...spacing(options),
  };
}

export interface Spacing {
  separator?: boolean;
  spacing?: "none" | "small" | "medium" | "large";
}

/** A stack of elements, optionally tinted (`attention` for bad news, `good` for a resolved alert). */
export function container(
  items: readonly CardElement[],
  style: "default" | "emphasis" | "good" | "attention" | "warning" = "default",
  options: Spacing = {},
): CardElement {
  return {
    type: "Container",
    items: [...items],
    ...(style === "default" ? {} : { style, bleed: true }),
    ...spacing(options),
  };
}

/** A table with a header row; the first column takes the most room. */
export function table(head: readonly string[], rows: readonly CardElement[][][]): CardElement {
  const cell = (items: CardElement[]) => ({ type: "TableCell", items });
  return {
    type: "Table",
    columns: head.map((_, i) => (i === 0 ? { width: 3 } : { width: 2 })),
    firstRowAsHeader: true,
    showGridLines: false,
    gridStyle: "default",
    rows: [
      { type: "TableRow", cells: head.map((h) => cell([richText([{ text: h, bold: true }])])) },
      ...rows.map((cells) => ({ type: "TableRow", cells: cells.map(cell) })),
    ],
  };
}

/** The message a Teams Workflows webhook takes, carrying one card. */
export function teamsMessage(
  body: readonly CardElement[],
  fallbackText: string,
  actions: readonly CardElement[] = [],
): TeamsMessage {
  const content: AdaptiveCard = {
    type: "AdaptiveCard",
    $schema: CARD_SCHEMA,
    version: CARD_VERSION,
    body: [...body],
    ...(actions.length > 0 ? { actions: [...actions] } : {}),
    fallbackText: plainText(truncateText(fallbackText, 1000)),
    msteams: { width: "Full" },
  };
  return {
    type: "message",
    attachments: [
      { contentType: "application/vnd.microsoft.card.adaptive", contentUrl: null, content },
    ],
  };
}

/** The size Teams measures against its limit: the message's JSON, in UTF-8 bytes. */
export function messageBytes(message: TeamsMessage): number {
  return Buffer.byteLength(JSON.stringify(message), "utf8");
}

/** An `Action.OpenUrl` button. */
export function openUrl(title: string, url: string): CardElement {
  return { type: "Action.OpenUrl", title: plainText(truncateText(title, 60)), url };
}

/** Text with control characters (other than none: a run is one line) turned into spaces. */
export function plainText(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is dropped
  return text.replace(/[\u0000-\u001f\u007f]/g, " ");
}

function spacing(options: Spacing): Record<string, unknown> {
  return {
    ...(options.separator ? { separator: true } : {}),
    ...(options.spacing ? { spacing: options.spacing } : {}),
  };
}
