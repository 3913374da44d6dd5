import type { SlackBlock, SlackMessage } from "../../../../src/messages.js";

/** Small readers over rendered Block Kit, so tests say what they look for. */

/** Every mrkdwn text in the message (sections, fields, context), where Slack parses markup. */
export function mrkdwnTexts(message: SlackMessage): string[] {
  const texts: string[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (typeof value !== "object" || value === null) return;
    const record = value as Record<string, unknown>;
    if (record.type === "mrkdwn" && typeof record.text === "string") texts.push(record.text);
    for (const inner of Object.values(record)) visit(inner);
  };
  visit(message.blocks);
  return texts;
}

export function blocksOfType(message: SlackMessage, type: string): SlackBlock[] {
  return message.blocks.filter((b) => b.type === type);
}

/** The table's rows as plain strings. */
export function tableRows(message: SlackMessage): string[][] {
  const table = blocksOfType(message, "table")[0];
  if (!table) return [];
  return (table.rows as { text: string }[][]).map((row) => row.map((cell) => cell.text));
}

/** The headline field for a label, e.g. "Flaky rate" → "*Flaky rate*\n2.0%  🔴 ↑ +1.1 pp". */
export function headlineField(message: SlackMessage, label: string): string {
  const field = mrkdwnTexts(message).find((t) => t.startsWith(`*${label}*\n`));
  if (field === undefined) throw new Error(`no headline field ${label}`);
  return field;
}

/** All section texts (not fields) joined, for "contains" checks. */
export function sectionTexts(message: SlackMessage): string {
  return blocksOfType(message, "section")
    .map((b) => (b.text as { text?: string } | undefined)?.text ?? "")
    .join("\n");
}

/** The header block's plain text. */
export function headerText(message: SlackMessage): string {
  const header = blocksOfType(message, "header")[0];
  if (!header) throw new Error("no header block");
  return (header.text as { text: string }).text;
}
