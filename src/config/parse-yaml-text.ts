import { isPair, isScalar, isSeq, LineCounter, parseDocument, visit } from "yaml";
import type { ConfigIssue } from "../errors.js";
import { formatConfigPath } from "./config-path.js";
import { unresolvableReferences } from "./yaml-references.js";

/** A value YAML read as empty because it starts with `#`: `channel: #qa` is `channel:` and a comment. */
export interface CommentedValue {
  path: string;
  line: number;
  /** What was written after the colon, as it must be quoted: `#qa`. */
  written: string;
}

/**
 * Parses YAML text into plain data. Syntax errors come back as issues with `line:column`; only
 * the parser's one-line reason is kept, never the quoted source line (it might hold a secret).
 */
export function parseYamlText(
  text: string,
): { value: unknown; commented: CommentedValue[] } | { issues: ConfigIssue[] } {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { merge: true, prettyErrors: true, lineCounter });
  if (doc.errors.length > 0) {
    const seenLines = new Set<number>();
    const issues: ConfigIssue[] = [];
    for (const error of doc.errors) {
      const at = error.linePos?.[0];
      // One problem per line: a single bad line often trips several follow-on errors.
      if (at && seenLines.has(at.line)) continue;
      if (at) seenLines.add(at.line);
      const commented = at ? commentedOnLine(text, at.line) : null;
      if (commented && at) {
        issues.push({
          path: "",
          message: `YAML syntax error at ${commented.line}:${commented.col}: ${commentAdvice(commented.written)}`,
        });
        continue;
      }
      const where = at ? ` at ${at.line}:${at.col}` : "";
      issues.push({ path: "", message: `YAML syntax error${where}: ${reason(error.message)}` });
    }
    return { issues };
  }
  const unresolvable = unresolvableReferences(doc, lineCounter);
  if (unresolvable.length > 0) return { issues: unresolvable };
  try {
    return {
      value: doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }),
      commented: commentedValues(doc, text),
    };
  } catch (error) {
    // yaml stops an alias bomb (aliases of aliases, expanding without bound) with a ReferenceError.
    if (error instanceof ReferenceError && /alias count/i.test(error.message)) {
      return { issues: [{ path: "", message: TOO_MANY_ALIASES }] };
    }
    // Anything else the library meets only while converting is still a problem of the text.
    return { issues: [{ path: "", message: unreadableYaml(error) }] };
  }
}

/**
 * The issue for YAML that parsed yet could not be converted to data, with the way out: what
 * always converts is plain keys, lists and values, so the fix is to write that part out plainly.
 */
export function unreadableYaml(error: unknown): string {
  const message = error instanceof Error ? reason(error.message) : String(error);
  return `the YAML cannot be read as data: ${message} — write that part as plain keys, lists and quoted values, without YAML tags (!!set, !!omap, …) or aliases (*name)`;
}

// Ample for sharing a channel or a schedule by alias; far short of what an alias bomb expands to.
const MAX_ALIAS_COUNT = 1000;

const TOO_MANY_ALIASES =
  "the config uses too many YAML aliases (*name): expanded, they would make it enormous — write repeated values out, or alias fewer of them";

function reason(message: string): string {
  const first = (message.split("\n", 1)[0] ?? message).replace(/ at line \d+, column \d+:?$/, "");
  // The classic trap: an unquoted cron starting with `*` reads as a YAML alias.
  if (/alias/i.test(first)) {
    return `${first} — a value starting with * must be quoted, e.g. schedule: "*/15 * * * *"`;
  }
  return first;
}

/** The advice for a value that YAML read as a comment. */
export function commentAdvice(written: string): string {
  return `\`#\` starts a comment in YAML — quote it: "${written}"`;
}

// `key: #word`: a `#` right after the colon and directly followed by a word is a value meant,
// not a comment written (comments are `# words`, with a space).
const COMMENTED = /:[ \t]+(#[^\s,}\]#]+)/;

// An unclosed `{ channel: #qa }` is reported where the parser gave up: on a line below.
const LINES_LOOKED_BACK = 3;

/** The `key: #word` on the error's line or just above it, with where its `#` stands. */
function commentedOnLine(
  text: string,
  errorLine: number,
): { line: number; col: number; written: string } | null {
  const lines = text.split(/\r?\n/);
  for (let line = errorLine; line >= Math.max(1, errorLine - LINES_LOOKED_BACK); line--) {
    const match = COMMENTED.exec(lines[line - 1] ?? "");
    if (match?.[1]) {
      return { line, col: match.index + match[0].length - match[1].length + 1, written: match[1] };
    }
  }
  return null;
}

/** Every key whose value is empty only because what follows its colon starts with `#`. */
function commentedValues(doc: ReturnType<typeof parseDocument>, text: string): CommentedValue[] {
  const found: CommentedValue[] = [];
  visit(doc, {
    Pair(_, pair, ancestors) {
      const value = pair.value;
      const empty = value === null || (isScalar(value) && value.value === null && !value.source);
      const keyEnd = isScalar(pair.key) ? pair.key.range?.[1] : undefined;
      if (!empty || keyEnd === undefined) return;
      const lineEnd = text.indexOf("\n", keyEnd);
      const rest = text.slice(keyEnd, lineEnd < 0 ? undefined : lineEnd);
      const match = /^[ \t]*:[ \t]+(#[^\s,}\]#]+)/.exec(rest);
      if (!match?.[1]) return;
      const line = text.slice(0, keyEnd).split("\n").length;
      found.push({ path: pathOf([...ancestors, pair]), line, written: match[1] });
    },
  });
  return found;
}

/** The config path of a pair from its ancestors in the document. */
function pathOf(nodes: readonly unknown[]): string {
  const segments: (string | number)[] = [];
  for (const [i, node] of nodes.entries()) {
    if (isPair(node) && isScalar(node.key)) segments.push(String(node.key.value));
    if (isSeq(node)) segments.push(node.items.indexOf(nodes[i + 1] as never));
  }
  return formatConfigPath(segments);
}
