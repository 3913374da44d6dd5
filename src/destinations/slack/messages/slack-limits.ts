import type { SlackBlock, SlackMessage } from "../../../messages.js";

/** Slack's documented limits for a message and its blocks, and our own text budget. */
export const SLACK_LIMITS = {
  blocks: 50,
  headerChars: 150,
  sectionChars: 3000,
  fields: 10,
  fieldChars: 2000,
  contextElements: 10,
  actionsElements: 25,
  buttonTextChars: 75,
  urlChars: 3000,
  tables: 1,
  tableRows: 100,
  tableCells: 20,
  /** The whole message's text, as Slack advises for blocks. */
  messageChars: 12_000,
} as const;

/** What every message we build aims to stay under: well inside `messageChars`. */
export const MESSAGE_TEXT_BUDGET = 8000;

/** Every piece of text a reader sees in the message: the fallback and each `text` in its blocks. */
export function slackTextLength(message: SlackMessage): number {
  return message.text.length + textIn(message.blocks);
}

function textIn(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + textIn(item), 0);
  if (typeof value !== "object" || value === null) return 0;
  let sum = 0;
  for (const [key, inner] of Object.entries(value)) {
    sum += key === "text" && typeof inner === "string" ? inner.length : textIn(inner);
  }
  return sum;
}

/** Each Slack limit this message breaks, with the path of the offending part; empty when valid. */
export function slackLimitProblems(message: SlackMessage): string[] {
  const problems: string[] = [];
  const { blocks } = message;
  if (message.text.trim() === "") problems.push("text: empty fallback text");
  if (blocks.length > SLACK_LIMITS.blocks)
    problems.push(`blocks: ${blocks.length} > ${SLACK_LIMITS.blocks}`);
  const total = slackTextLength(message);
  if (total > SLACK_LIMITS.messageChars) problems.push(`message: ${total} characters of text`);
  const tables = blocks.filter((b) => b.type === "table").length;
  if (tables > SLACK_LIMITS.tables) problems.push(`blocks: ${tables} tables`);
  blocks.forEach((block, i) => {
    problems.push(...blockProblems(block, `blocks[${i}]`));
  });
  return problems;
}

function blockProblems(block: SlackBlock, at: string): string[] {
  switch (block.type) {
    case "header":
      return tooLong(block.text, SLACK_LIMITS.headerChars, `${at}.text`);
    case "section":
      return sectionProblems(block, at);
    case "context":
      return countOver(block.elements, SLACK_LIMITS.contextElements, `${at}.elements`);
    case "actions":
      return actionsProblems(block, at);
    case "table":
      return tableProblems(block, at);
    default:
      return [];
  }
}

function sectionProblems(block: SlackBlock, at: string): string[] {
  const problems = tooLong(block.text, SLACK_LIMITS.sectionChars, `${at}.text`);
  if (block.text === undefined && block.fields === undefined) problems.push(`${at}: no text`);
  if (Array.isArray(block.fields)) {
    problems.push(...countOver(block.fields, SLACK_LIMITS.fields, `${at}.fields`));
    block.fields.forEach((field, j) => {
      problems.push(...tooLong(field, SLACK_LIMITS.fieldChars, `${at}.fields[${j}]`));
    });
  }
  return problems;
}

function actionsProblems(block: SlackBlock, at: string): string[] {
  const problems = countOver(block.elements, SLACK_LIMITS.actionsElements, `${at}.elements`);
  if (!Array.isArray(block.elements)) return problems;
  block.elements.forEach((element: unknown, j) => {
    const where = `${at}.elements[${j}]`;
    if (typeof element !== "object" || element === null) return;
    const button = element as { text?: unknown; url?: unknown };
    problems.push(...tooLong(button.text, SLACK_LIMITS.buttonTextChars, `${where}.text`));
    if (typeof button.url === "string" && button.url.length > SLACK_LIMITS.urlChars) {
      problems.push(`${where}.url: longer than ${SLACK_LIMITS.urlChars}`);
    }
  });
  return problems;
}

function tableProblems(block: SlackBlock, at: string): string[] {
  const rows = block.rows;
  if (!Array.isArray(rows) || rows.length === 0) return [`${at}.rows: none`];
  const problems = countOver(rows, SLACK_LIMITS.tableRows, `${at}.rows`);
  rows.forEach((row: unknown, r) => {
    if (!Array.isArray(row) || row.length === 0) {
      problems.push(`${at}.rows[${r}]: no cells`);
      return;
    }
    problems.push(...countOver(row, SLACK_LIMITS.tableCells, `${at}.rows[${r}]`));
    row.forEach((cell: unknown, c) => {
      const text = (cell as { text?: unknown } | null)?.text;
      if (typeof text !== "string" || text.trim() === "")
        problems.push(`${at}.rows[${r}][${c}]: empty cell`);
    });
  });
  return problems;
}

function tooLong(textObject: unknown, max: number, at: string): string[] {
  const text = (textObject as { text?: unknown } | null | undefined)?.text;
  return typeof text === "string" && text.length > max
    ? [`${at}: ${text.length} > ${max} characters`]
    : [];
}

function countOver(items: unknown, max: number, at: string): string[] {
  return Array.isArray(items) && items.length > max ? [`${at}: ${items.length} > ${max}`] : [];
}
