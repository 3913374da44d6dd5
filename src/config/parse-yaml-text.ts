import { parseDocument } from "yaml";
import type { ConfigIssue } from "../errors.js";

/**
 * Parses YAML text into plain data. Syntax errors come back as issues with `line:column`; only
 * the parser's one-line reason is kept, never the quoted source line (it might hold a secret).
 */
export function parseYamlText(text: string): { value: unknown } | { issues: ConfigIssue[] } {
  const doc = parseDocument(text, { merge: true, prettyErrors: true });
  if (doc.errors.length > 0) {
    const seenLines = new Set<number>();
    const issues: ConfigIssue[] = [];
    for (const error of doc.errors) {
      const at = error.linePos?.[0];
      // One problem per line: a single bad line often trips several follow-on errors.
      if (at && seenLines.has(at.line)) continue;
      if (at) seenLines.add(at.line);
      const where = at ? ` at ${at.line}:${at.col}` : "";
      issues.push({ path: "", message: `YAML syntax error${where}: ${reason(error.message)}` });
    }
    return { issues };
  }
  try {
    return { value: doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) };
  } catch (error) {
    // yaml stops an alias bomb (aliases of aliases, expanding without bound) with a ReferenceError.
    if (error instanceof ReferenceError && /alias count/i.test(error.message)) {
      return { issues: [{ path: "", message: TOO_MANY_ALIASES }] };
    }
    throw error;
  }
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
