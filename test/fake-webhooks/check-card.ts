// What Teams checks of a card a workflow posts, as far as a test can: the envelope, the
// required fields of the Adaptive Card schema, a version Teams renders (1.5 at most), element
// and action types the schema knows, and Teams' 28 KB limit. Each problem names its path.

/** Teams' limit for a message with a card, in bytes. */
export const TEAMS_LIMIT_BYTES = 28 * 1024;

const ELEMENTS = new Set([
  "TextBlock",
  "Image",
  "Media",
  "RichTextBlock",
  "Container",
  "ColumnSet",
  "FactSet",
  "ImageSet",
  "ActionSet",
  "Table",
  "Input.Text",
  "Input.Number",
  "Input.Date",
  "Input.Time",
  "Input.Toggle",
  "Input.ChoiceSet",
]);
const ACTIONS = new Set([
  "Action.OpenUrl",
  "Action.Submit",
  "Action.ShowCard",
  "Action.ToggleVisibility",
  "Action.Execute",
]);
const COLOURS = new Set(["default", "dark", "light", "accent", "good", "warning", "attention"]);

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Every problem of a raw request body as a Teams workflow message; empty when it is fine. */
export function cardProblems(raw: string): string[] {
  let message: unknown;
  try {
    message = JSON.parse(raw);
  } catch {
    return ["body: not JSON"];
  }
  if (!isObject(message)) return ["body: not an object"];
  const problems: string[] = [];
  if (message.type !== "message") problems.push(`type: ${String(message.type)}, not "message"`);
  const attachments = message.attachments;
  if (!Array.isArray(attachments) || attachments.length === 0) {
    return [...problems, "attachments: missing or empty"];
  }
  for (const [i, a] of attachments.entries()) {
    const at = `attachments[${i}]`;
    if (!isObject(a)) {
      problems.push(`${at}: not an object`);
      continue;
    }
    if (a.contentType !== "application/vnd.microsoft.card.adaptive") {
      problems.push(`${at}.contentType: ${String(a.contentType)}`);
    }
    checkCard(a.content, `${at}.content`, problems);
  }
  return problems;
}

function checkCard(card: unknown, at: string, problems: string[]): void {
  if (!isObject(card)) {
    problems.push(`${at}: missing`);
    return;
  }
  if (card.type !== "AdaptiveCard") problems.push(`${at}.type: ${String(card.type)}`);
  const version = typeof card.version === "string" ? card.version : "";
  const [major, minor] = version.split(".").map(Number);
  if (!/^\d+\.\d+$/.test(version) || major !== 1 || (minor ?? 99) > 5) {
    problems.push(`${at}.version: "${version}" (Teams renders 1.0 to 1.5)`);
  }
  each(card.body, `${at}.body`, problems, (e, path) => checkElement(e, path, problems));
  if (card.actions !== undefined) {
    each(card.actions, `${at}.actions`, problems, (a, path) => checkAction(a, path, problems));
  }
  if (isObject(card.msteams) && card.msteams.entities !== undefined) {
    problems.push(`${at}.msteams.entities: this reporter sends no mentions`);
  }
}

/** Calls `check` on each item of a required array, or says it is missing. */
function each(
  value: unknown,
  at: string,
  problems: string[],
  check: (item: unknown, path: string) => void,
): void {
  if (!Array.isArray(value)) {
    problems.push(`${at}: required array`);
    return;
  }
  for (const [i, item] of value.entries()) check(item, `${at}[${i}]`);
}

function checkElement(element: unknown, at: string, problems: string[]): void {
  if (!isObject(element) || typeof element.type !== "string") {
    problems.push(`${at}: an element needs a type`);
    return;
  }
  const { type } = element;
  if (!ELEMENTS.has(type)) {
    problems.push(`${at}.type: unknown element "${type}"`);
    return;
  }
  if (typeof element.color === "string" && !COLOURS.has(element.color.toLowerCase())) {
    problems.push(`${at}.color: "${element.color}"`);
  }
  const elements = (value: unknown, path: string) =>
    each(value, path, problems, (e, p) => checkElement(e, p, problems));
  switch (type) {
    case "TextBlock":
      if (typeof element.text !== "string") problems.push(`${at}.text: required string`);
      break;
    case "RichTextBlock":
      each(element.inlines, `${at}.inlines`, problems, (inline, path) => {
        if (typeof inline === "string") return;
        if (!isObject(inline) || inline.type !== "TextRun" || typeof inline.text !== "string") {
          problems.push(`${path}: a TextRun with text`);
        } else if (typeof inline.color === "string" && !COLOURS.has(inline.color.toLowerCase())) {
          problems.push(`${path}.color: "${inline.color}"`);
        } else if (inline.selectAction !== undefined) {
          checkAction(inline.selectAction, `${path}.selectAction`, problems);
        }
      });
      break;
    case "Container":
      elements(element.items, `${at}.items`);
      break;
    case "ColumnSet":
      if (element.columns === undefined) break;
      each(element.columns, `${at}.columns`, problems, (c, path) => {
        if (isObject(c) && c.items !== undefined) elements(c.items, `${path}.items`);
      });
      break;
    case "FactSet":
      each(element.facts, `${at}.facts`, problems, (f, path) => {
        if (!isObject(f) || typeof f.title !== "string" || typeof f.value !== "string") {
          problems.push(`${path}: a fact needs a title and a value`);
        }
      });
      break;
    case "ActionSet":
      each(element.actions, `${at}.actions`, problems, (a, path) => checkAction(a, path, problems));
      break;
    case "Table": {
      const columns = Array.isArray(element.columns) ? element.columns.length : 0;
      if (columns === 0) problems.push(`${at}.columns: required`);
      each(element.rows, `${at}.rows`, problems, (row, path) => {
        if (!isObject(row) || row.type !== "TableRow") {
          problems.push(`${path}: a TableRow`);
          return;
        }
        if (Array.isArray(row.cells) && row.cells.length > columns) {
          problems.push(`${path}.cells: ${row.cells.length} > ${columns} columns`);
        }
        each(row.cells, `${path}.cells`, problems, (cell, cellAt) => {
          if (!isObject(cell) || cell.type !== "TableCell") {
            problems.push(`${cellAt}: a TableCell`);
            return;
          }
          elements(cell.items, `${cellAt}.items`);
        });
      });
      break;
    }
  }
}

function checkAction(action: unknown, at: string, problems: string[]): void {
  if (!isObject(action) || typeof action.type !== "string" || !ACTIONS.has(action.type)) {
    const type = isObject(action) ? action.type : action;
    problems.push(`${at}: unknown action ${JSON.stringify(type)}`);
    return;
  }
  if (action.type === "Action.OpenUrl" && !/^https?:\/\//.test(String(action.url ?? ""))) {
    problems.push(`${at}.url: an http(s) URL is required`);
  }
}
