// Text from the API, the config or the ledger as a terminal may print it. A project name can
// hold ESC sequences that clear the screen or recolour it, an OSC-8 hyperlink that hides a URL
// behind words, a carriage return or backspace that overwrites what was printed, or a bidi
// control (U+202E) that shows the rest of the line reversed. Every terminal line a name
// reaches (`alerts`, `projects`, `preview`, `history`, `store`, config problems) passes it
// through here; our own colours are added after, by the renderers.

/** Line and tab breaks: a space, so the words on either side stay apart. */
const BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]/g;

/**
 * C0 and C1 control characters (ESC and CSI among them), DEL, and the controls that change the
 * direction of the text after them: dropped. What an escape sequence leaves (`[2J`) is text.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point.
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** `text` with no control or bidi character left: breaks become spaces, the rest is dropped. */
export function printableText(text: string): string {
  return text.replace(BREAKS, " ").replace(UNPRINTABLE, "");
}
