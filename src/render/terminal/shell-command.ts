import { wrap } from "./terminal-style.js";

// Commands printed for a reader to paste (the demo's "Next:"): however they wrap, a shell reads
// back the words they were made of, a path with spaces or quotes in it included.

/** `word` as a POSIX shell reads it back: as it is when plain, else in single quotes. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

const NO_BREAK = "\u00a0";

/**
 * `line` (shell words joined by spaces) fitted to `width` columns, indented 2: it goes on after
 * a backslash, as a shell reads it, never inside a quoted word nor between an option and its
 * value.
 */
export function commandLines(line: string, width: number): string[] {
  const words = unbreakableQuotes(line).replaceAll(/(--\S+) (?![-#])/g, `$1${NO_BREAK}`);
  const lines = wrap(words, width - 2, "  ", "    ").map((l) => l.replaceAll(NO_BREAK, " "));
  return lines.map((l, i) => (i < lines.length - 1 ? `${l} \\` : l));
}

/** `line` with each space inside single quotes made a no-break space. */
function unbreakableQuotes(line: string): string {
  let quoted = false;
  let out = "";
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (!quoted && c === "\\") {
      out += c + (line[i + 1] ?? "");
      i++;
      continue;
    }
    if (c === "'") quoted = !quoted;
    out += quoted && c === " " ? NO_BREAK : c;
  }
  return out;
}
