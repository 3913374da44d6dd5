import { createRequire } from "node:module";
import type stringWidthOf from "string-width";

// Small text tools for the terminal preview: ANSI styling that is a no-op without colour,
// padding by the columns a terminal gives the text (a CJK character or an emoji takes two).
// Names are made printable before they get here, by `printableText`.

export type Tone = "good" | "bad" | "neutral" | "noise" | "title";

const CODES: Record<Tone, [string, string] | null> = {
  good: ["\x1b[32m", "\x1b[39m"],
  bad: ["\x1b[31m", "\x1b[39m"],
  neutral: null,
  noise: ["\x1b[2m", "\x1b[22m"],
  title: ["\x1b[1m", "\x1b[22m"],
};

/** Styles `text` with `tone` when `color` is on; plain text otherwise. */
export function paint(text: string, tone: Tone, color: boolean): string {
  const codes = CODES[tone];
  return color && codes !== null && text !== "" ? `${codes[0]}${text}${codes[1]}` : text;
}

// Latin and Greek text, dashes, arrows, math signs, bars and ✓ take one column a character, as string-width counts them:
// such text (most of every line) is counted without loading string-width, whose tables cost
// every command ~20 ms at start. Anything else (CJK, emoji, ANSI codes, combining marks, the
// soft hyphen) is measured by it, loaded on first need (synchronously: require of an ES module).
const ONE_COLUMN_EACH =
  /^[\x20-\x7e\u00a0-\u00ac\u00ae-\u02ff\u0370-\u03ff\u2010-\u2027\u2190-\u22ff\u2500-\u259f\u2713]*$/;
let stringWidth: typeof stringWidthOf | undefined;

/** Columns a terminal shows `text` in: wide characters and emoji count two, ANSI codes none. */
export function visibleLength(text: string): number {
  if (ONE_COLUMN_EACH.test(text)) return text.length;
  stringWidth ??= (
    createRequire(import.meta.url)("string-width") as { default: typeof stringWidthOf }
  ).default;
  return stringWidth(text);
}

const graphemes = new Intl.Segmenter("en", { granularity: "grapheme" });

/** Cuts `text` to `width` columns, ending in "…" when cut; never splits a character. */
export function clip(text: string, width: number): string {
  if (visibleLength(text) <= width) return text;
  let kept = "";
  let used = 0;
  for (const { segment } of graphemes.segment(text)) {
    const w = visibleLength(segment);
    if (used + w > width - 1) break;
    kept += segment;
    used += w;
  }
  return `${kept}\u2026`;
}

/** Pads plain `text` to `width` columns, on the right ("left") or the left ("right"). */
export function pad(text: string, width: number, align: "left" | "right" = "left"): string {
  const gap = " ".repeat(Math.max(0, width - visibleLength(text)));
  return align === "left" ? `${text}${gap}` : `${gap}${text}`;
}

/** Word-wraps `text` to `width` columns: the first line starts with `first`, the others with `rest`. */
export function wrap(text: string, width: number, first: string, rest: string): string[] {
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const word of text.split(" ")) {
    const candidate = empty ? `${line}${word}` : `${line} ${word}`;
    if (!empty && visibleLength(candidate) > width) {
      lines.push(line);
      line = `${rest}${word}`;
    } else {
      line = candidate;
    }
    empty = false;
  }
  lines.push(line);
  return lines;
}

/**
 * Fits one line of a command's output to `width` columns: where it is wider, it breaks between
 * words, and each following line is indented two more than the line's own indent. A single
 * word wider than the room (a long path) is left whole: a terminal wraps it, nothing is lost.
 */
export function fitLine(line: string, width: number): string[] {
  if (visibleLength(line) <= width) return [line];
  const indent = /^ */.exec(line)?.[0] ?? "";
  const words = line.slice(indent.length).split(/ +/);
  return wrap(words.join(" "), width, indent, `${indent}  `);
}
