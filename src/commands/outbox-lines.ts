import { basename } from "node:path";
import { printableText } from "../render/printable-text.js";
import { visibleLength, wrap } from "../render/terminal/terminal-style.js";

/**
 * The files one step of the demo wrote: "→ DIR/" at `indent`, then one name a line under it.
 * No line runs past `width`: a name wider than the room breaks after one of its dots, the rest
 * two columns further in.
 */
export function outboxLines(
  dir: string,
  files: readonly string[],
  indent: string,
  width: number,
): string[] {
  if (files.length === 0) return [];
  const under = `${indent}  `;
  const names = inNameOrder(files).flatMap((file) =>
    nameLines(printableText(basename(file)), width, under),
  );
  return [`${indent}\u2192 ${printableText(dir)}/`, ...names];
}

function nameLines(name: string, width: number, under: string): string[] {
  const rest = `${under}  `;
  // An edit's file is named after the post it edits: that post's name goes on the next line
  // whole, where it fits; any other name breaks after whichever dot fills the line.
  const edit = name.split(/(?<=\.update\.)/);
  const fits = Math.max(...edit.map(visibleLength)) + rest.length <= width;
  const parts = fits ? edit : name.split(/(?<=\.)/);
  // Each part a word for `wrap`, which breaks only between words; the spaces it joins the
  // parts with are taken out again (an outbox file's name has none: deliver/outbox.ts).
  return wrap(parts.join(" "), width, under, rest).map((line) => line.replaceAll(". ", "."));
}

/**
 * Files an outbox wrote, in their names' order: the same on every run, where the order the
 * writes finished in is not (a Slack post, a Teams card and a webhook body are written at once).
 */
export function inNameOrder(files: readonly string[]): string[] {
  return [...files].sort();
}
