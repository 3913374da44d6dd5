/**
 * The chat.postMessage limits the fake enforces, as Slack documents them, so a renderer that
 * overflows one fails in tests the way it would fail in a real workspace.
 */

/** Slack's error string plus the `[ERROR]` detail it puts in `response_metadata.messages`. */
export interface Refusal {
  error: string;
  messages: string[];
}

export const LIMITS = {
  textChars: 40_000,
  blocks: 50,
  headerChars: 150,
  sectionChars: 3000,
  fields: 10,
  fieldChars: 2000,
  contextElements: 10,
  tables: 1,
  tableRows: 100,
  tableCells: 20,
} as const;

/** Why Slack would refuse this message, or null when it would accept it. */
export function checkMessage(text: unknown, blocks: unknown): Refusal | null {
  const hasText = typeof text === "string" && text.length > 0;
  if (blocks === undefined || blocks === null) {
    if (!hasText) return { error: "no_text", messages: [] };
  } else if (!Array.isArray(blocks)) {
    return { error: "invalid_blocks_format", messages: ["[ERROR] blocks must be an array"] };
  }
  if (typeof text === "string" && text.length > LIMITS.textChars) {
    return { error: "msg_too_long", messages: [] };
  }
  if (!Array.isArray(blocks)) return null;
  if (blocks.length > LIMITS.blocks) {
    return invalid(`no more than ${LIMITS.blocks} items allowed`, "/blocks");
  }
  let tables = 0;
  for (const [i, block] of blocks.entries()) {
    const refusal = checkBlock(block, `/blocks/${i}`);
    if (refusal) return refusal;
    if (isRecord(block) && block.type === "table" && ++tables > LIMITS.tables) {
      return invalid("only one table block is allowed per message", `/blocks/${i}`);
    }
  }
  return null;
}

function checkBlock(block: unknown, at: string): Refusal | null {
  if (!isRecord(block) || typeof block.type !== "string") {
    return invalid("a block must be an object with a type", at);
  }
  switch (block.type) {
    case "header":
      return tooLong(block.text, LIMITS.headerChars, `${at}/text/text`);
    case "section": {
      const refusal = tooLong(block.text, LIMITS.sectionChars, `${at}/text/text`);
      if (refusal) return refusal;
      if (block.fields === undefined) return null;
      if (!Array.isArray(block.fields) || block.fields.length > LIMITS.fields) {
        return invalid(`no more than ${LIMITS.fields} items allowed`, `${at}/fields`);
      }
      for (const [j, field] of block.fields.entries()) {
        const fieldRefusal = tooLong(field, LIMITS.fieldChars, `${at}/fields/${j}/text`);
        if (fieldRefusal) return fieldRefusal;
      }
      return null;
    }
    case "context":
      if (Array.isArray(block.elements) && block.elements.length > LIMITS.contextElements) {
        return invalid(`no more than ${LIMITS.contextElements} items allowed`, `${at}/elements`);
      }
      return null;
    case "table":
      return checkTable(block, at);
    default:
      return null;
  }
}

function checkTable(block: Record<string, unknown>, at: string): Refusal | null {
  const rows = block.rows;
  if (!Array.isArray(rows) || rows.length === 0 || rows.length > LIMITS.tableRows) {
    return invalid(`a table needs 1 to ${LIMITS.tableRows} rows`, `${at}/rows`);
  }
  for (const [r, row] of rows.entries()) {
    if (!Array.isArray(row) || row.length === 0 || row.length > LIMITS.tableCells) {
      return invalid(`a row needs 1 to ${LIMITS.tableCells} cells`, `${at}/rows/${r}`);
    }
  }
  return null;
}

/** A text object ({type, text}) whose text is longer than `max`. */
function tooLong(textObject: unknown, max: number, at: string): Refusal | null {
  if (!isRecord(textObject) || typeof textObject.text !== "string") return null;
  return textObject.text.length > max
    ? invalid(`must be less than ${max + 1} characters`, at)
    : null;
}

function invalid(reason: string, pointer: string): Refusal {
  return { error: "invalid_blocks", messages: [`[ERROR] ${reason} [json-pointer:${pointer}]`] };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
