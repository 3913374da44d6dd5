import { EventEmitter, once } from "node:events";
import type ExcelJS from "exceljs";
import {
  type CellKind,
  type CellTone,
  type CellValue,
  displayLength,
  fontOf,
  NUMBER_FORMATS,
} from "./workbook-cells.js";

// One table sheet, written through exceljs's streaming writer: a bold frozen header row, an
// autofilter over the table, widths fitted from the header and every value, and each row
// committed as soon as it is built so a 45,000-row sheet never sits in memory.

export interface SheetColumn<R> {
  header: string;
  kind: CellKind;
  value(row: R): CellValue;
  /** Font colour for the value, for deltas and states that know good from bad. */
  tone?(row: R): CellTone;
  /** A web address the cell links to (the value stays its text), or null for none. */
  link?(row: R): string | null;
}

export interface TableSheet<R> {
  name: string;
  columns: readonly SheetColumn<R>[];
  /** Called twice (fit widths, then write), so rows can be generated lazily from the report. */
  rows: () => Iterable<R>;
  /** Rows shown in bold, such as the team total. */
  emphasis?(row: R): boolean;
  /** Columns kept in view when scrolling right. */
  frozenColumns?: number;
  /** Data rows under the autofilter (default all): rows after them, like a total, stay out. */
  filterRows?: number;
}

/**
 * Rows between waits for the zip to take all it was given (about 65 KB of Daily XML). Short, so
 * each chunk of XML is compressed before many young-generation collections pass: a chunk that
 * waits longer is promoted to the old generation, where only a full collection frees it, and V8
 * starts one for Buffers only 64 MB later. Waiting every 500 rows for 2 MB left the 48 MB of a
 * 72,700-row Daily sheet's XML in memory, uncollected, until the end (`bench/export-bench.ts`).
 */
const ROWS_PER_DRAIN = 100;
const MIN_WIDTH = 6;
/** Text wider than this wraps, its row made as tall as it needs. */
const MAX_WIDTH = 30;

const HEADER_STYLE: Partial<ExcelJS.Style> = {
  font: fontOf({ bold: true }),
  fill: { type: "pattern", pattern: "solid", fgColor: { argb: "FFF2F2F2" } },
  border: { bottom: { style: "thin", color: { argb: "FFBFBFBF" } } },
  // Top-aligned with a spare line below: the autofilter button sits there, never on the text.
  alignment: { vertical: "top", wrapText: true },
};

/** A header wraps rather than widen its column past this (its longest word still fits). */
const HEADER_WIDTH = 7;

/**
 * The widest sheet that is shrunk to the page's width when printed: about 20 fitted columns
 * print at 70–90% on landscape A4. A wider sheet (42 columns printed at 23%, 2.5 pt text) is
 * printed at full size across pages instead, its first column repeated on each.
 */
const MAX_FITTED_COLUMNS = 20;

/** Landscape A4, all columns on the page's width, as many pages down as it takes. */
export const PRINT_SETUP = {
  orientation: "landscape",
  paperSize: 9,
  fitToPage: true,
  fitToWidth: 1,
  fitToHeight: 0,
  margins: { left: 0.4, right: 0.4, top: 0.5, bottom: 0.5, header: 0.3, footer: 0.3 },
} as const;

/** Landscape A4 at full size, for sheets too wide to shrink to one page's width legibly. */
const WIDE_PRINT_SETUP = {
  orientation: "landscape",
  paperSize: 9,
  fitToPage: false,
  scale: 100,
  margins: PRINT_SETUP.margins,
} as const;

/** Writes one table sheet into a streaming workbook and commits it. */
export async function writeTableSheet<R>(
  book: ExcelJS.stream.xlsx.WorkbookWriter,
  spec: TableSheet<R>,
): Promise<void> {
  const { columns } = spec;
  const sheet = book.addWorksheet(spec.name, {
    views: [{ state: "frozen", xSplit: spec.frozenColumns ?? 0, ySplit: 1 }],
    // Printed: landscape, the header on every page; as wide as the page when that stays legible.
    pageSetup:
      columns.length <= MAX_FITTED_COLUMNS
        ? { ...PRINT_SETUP, printTitlesRow: "1:1" }
        : { ...WIDE_PRINT_SETUP, printTitlesRow: "1:1", printTitlesColumn: "A:A" },
  });
  const widths = fitWidths(spec);
  sheet.columns = columns.map((column, i) => ({
    width: widths[i],
    style: styleOf(column.kind, i),
  }));

  const header = sheet.addRow(columns.map((c) => c.header));
  header.eachCell((cell) => {
    cell.style = HEADER_STYLE;
  });
  // Neither Excel nor LibreOffice grows a streamed row to fit wrapped text: say how tall.
  header.height =
    15 * (1 + Math.max(...columns.map((c, i) => wrappedLines(c.header, widths[i] ?? 10))));
  header.commit();

  const styles = new StyleCache(columns.map((c, i) => styleOf(c.kind, i)));
  let written = 1;
  for (const row of spec.rows()) {
    const added = sheet.addRow(columns.map((c) => c.value(row)));
    const bold = spec.emphasis?.(row) === true;
    let tall = 1;
    columns.forEach((column, i) => {
      const cell = added.getCell(i + 1);
      let wrap = false;
      if (column.kind === "text" && typeof cell.value === "string") {
        const lines = wrappedLines(cell.value, widths[i] ?? 10);
        wrap = lines > 1;
        tall = Math.max(tall, lines);
      }
      const link = column.link?.(row) ?? null;
      if (link !== null && typeof cell.value === "string") {
        cell.value = { text: cell.value, hyperlink: link };
      }
      const tone = link === null ? (column.tone?.(row) ?? "neutral") : "neutral";
      cell.style = styles.of(i, { bold, tone, link: link !== null, wrap });
    });
    // A long note wraps in its column: the row grows to show it (no spreadsheet grows it).
    if (tall > 1) added.height = 15 * tall;
    added.commit();
    written += 1;
    if (written % ROWS_PER_DRAIN === 0) await drained(sheet);
  }

  const filtered = spec.filterRows === undefined ? written : 1 + spec.filterRows;
  sheet.autoFilter = {
    from: { row: 1, column: 1 },
    to: { row: Math.min(written, filtered), column: columns.length },
  };
  sheet.commit();
}

/** Widths from the longest header or value of each column (the streaming writer needs them up front). */
function fitWidths<R>(spec: TableSheet<R>): number[] {
  // Long headers wrap, but their longest word still fits, in bold (a character wider). The
  // autofilter button has the header's spare bottom line, so needs no width.
  const longest = spec.columns.map((c) =>
    Math.max(
      Math.min(c.header.length, HEADER_WIDTH),
      ...c.header.split(" ").map((w) => w.length + 1),
    ),
  );
  for (const row of spec.rows()) {
    spec.columns.forEach((column, i) => {
      const length = displayLength(column.kind, column.value(row));
      if (length > (longest[i] ?? 0)) longest[i] = length;
    });
  }
  return longest.map((n) => Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, n + 1)));
}

/** Lines `text` word-wraps to in a column `width` characters wide; a longer word is broken. */
export function wrappedLines(text: string, width: number): number {
  const room = Math.max(1, width - 1);
  let lines = 0;
  for (const part of text.split("\n")) {
    lines += 1;
    let used = 0;
    for (const word of part.split(" ")) {
      const need = used === 0 ? word.length : used + 1 + word.length;
      if (need <= room) {
        used = need;
        continue;
      }
      if (used > 0) lines += 1;
      lines += Math.max(0, Math.ceil(word.length / room) - 1);
      used = word.length % room || room;
    }
  }
  return lines;
}

type Look = { bold: boolean; tone: CellTone; link: boolean; wrap: boolean };

const TONES: readonly CellTone[] = ["neutral", "good", "bad", "warn"];

/**
 * One style object per column and look, shared by every cell that has it: exceljs recognises a
 * style it has seen by identity, and works out a new object's style id from scratch (a font's
 * XML and all), which for 45,000 rows was most of the writing time.
 */
class StyleCache {
  private readonly cache = new Map<number, Partial<ExcelJS.Style>>();
  constructor(private readonly base: readonly Partial<ExcelJS.Style>[]) {}

  of(column: number, look: Look): Partial<ExcelJS.Style> {
    // A number, not a string: this runs for every cell (1.2 million of a 2-year export).
    const key =
      column * 32 +
      TONES.indexOf(look.tone) * 8 +
      (look.bold ? 4 : 0) +
      (look.link ? 2 : 0) +
      (look.wrap ? 1 : 0);
    let style = this.cache.get(key);
    if (!style) {
      const base = this.base[column] ?? {};
      const plain = !look.bold && look.tone === "neutral" && !look.link;
      style = {
        ...base,
        ...(plain ? {} : { font: fontOf({ bold: look.bold, tone: look.tone, link: look.link }) }),
        ...(look.wrap ? { alignment: { ...base.alignment, vertical: "top", wrapText: true } } : {}),
      };
      this.cache.set(key, style);
    }
    return style;
  }
}

function styleOf(kind: CellKind, index: number): Partial<ExcelJS.Style> {
  const numFmt = NUMBER_FORMATS[kind];
  if (numFmt) return { numFmt, font: fontOf() };
  // Text right of a right-aligned number ("+12%noise") keeps a space's distance from it.
  return index === 0 ? { font: fontOf() } : { font: fontOf(), alignment: { indent: 1 } };
}

/**
 * exceljs's streaming writer ignores backpressure (exceljs/exceljs#734): committed rows pile up
 * in the zip's input buffer, in memory, as fast as we produce them. So every few hundred rows we
 * wait until the sheet's pipe into the zip has drained. That pipe is an exceljs internal (an old
 * readable-stream PassThrough); if it is not there, we fall back to yielding one turn.
 */
async function drained(sheet: ExcelJS.Worksheet): Promise<void> {
  const pipes = (sheet as unknown as { stream?: { pipes?: unknown } }).stream?.pipes;
  const full = Array.isArray(pipes) ? pipes.filter(overfull) : [];
  if (full.length === 0) {
    await new Promise((resolve) => setImmediate(resolve));
    return;
  }
  await Promise.all(full.map((pipe) => once(pipe, "drain")));
}

type Pipe = EventEmitter & {
  writableLength?: number;
  writableNeedDrain?: boolean;
  _writableState?: { length?: number; needDrain?: boolean };
};

function overfull(value: unknown): value is Pipe {
  if (!(value instanceof EventEmitter)) return false;
  const pipe = value as Pipe;
  const buffered = pipe.writableLength ?? pipe._writableState?.length ?? 0;
  // 'drain' only fires once a write has been refused (and then when all is taken), so wait
  // only when one has.
  const refused = pipe.writableNeedDrain ?? pipe._writableState?.needDrain ?? false;
  return refused && buffered > 0;
}
