import { readFileSync } from "node:fs";
import { vega } from "./vega.js";

// How wide chart text is in the bundled font, for Vega to lay charts out and cut titles by.
// With no canvas Vega guesses 0.8 em a character, wider than DejaVu Sans's letters: it cut
// titles that had room ("Flaky rate · Checkout squad (tea…") and made room for axis labels
// that needed less. Vega takes a width function of one's own (vl-convert, the Vega team's
// converter, installs one the same way); this one adds up the advance widths the font itself
// gives (`scripts/chart-font-widths.ts` reads them into a JSON file beside it).

/** The advance widths of a font's characters, in font units, by code point. */
export interface FontWidths {
  unitsPerEm: number;
  /** The advance of the glyph drawn for a character the font lacks. */
  notdef: number;
  advances: Readonly<Record<string, number>>;
}

/** The widths file `scripts/chart-font-widths.ts` wrote. */
export function fontWidthsOfFile(file: string): FontWidths {
  return JSON.parse(readFileSync(file, "utf8")) as FontWidths;
}

/**
 * The width of `text` set at `fontSize` pixels: its characters' advances. Kerning is left
 * out; DejaVu's pairs only ever narrow a line, so a title measured to fit does fit.
 */
function textWidth(widths: FontWidths, text: string, fontSize: number): number {
  let units = 0;
  for (const character of text) {
    units += widths.advances[character.codePointAt(0) ?? 0] ?? widths.notdef;
  }
  return (units / widths.unitsPerEm) * fontSize;
}

/** A text item as Vega hands it to its width function; Vega's default size is 11 px. */
interface TextItem {
  text?: unknown;
  fontSize?: number | string | null;
  /** Pixels Vega cuts the text to, with "…"; 0 or none: never cut. */
  limit?: number;
}

/**
 * Makes Vega measure text with these widths, in this thread. Vega keeps one width function per
 * module instance; the chart module is the only user of Vega in any process, and every painter
 * installs the same widths.
 */
export function measureChartTextBy(widths: FontWidths): void {
  // Exported by Vega (from vega-scenegraph) but not in its type definitions.
  const { textMetrics } = vega as unknown as {
    textMetrics: { width: (item: TextItem, text: unknown) => number };
  };
  textMetrics.width = (item, text) => {
    const size = item.fontSize != null ? Number(item.fontSize) || 0 : 11;
    const width = textWidth(widths, text == null ? "" : String(text).trim(), size);
    // Vega asks for the whole text's width to lay it out and to decide whether to cut it, and
    // then for its pieces to find the cut. Whole, a text with a limit takes no more room than
    // the limit (so a long title does not narrow the plot), and is still over it to be cut.
    const limit = Number(item.limit) || 0;
    return limit > 0 && text === item.text ? Math.min(width, limit) : width;
  };
}
