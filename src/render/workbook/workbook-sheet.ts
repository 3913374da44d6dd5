import { EventEmitter, once } from "node:events";
import type ExcelJS from "exceljs";
import {
  type CellKind,
  type CellTone,
  type CellValue,
  displayLength,
  NUMBER_FORMATS,
  TONE_COLOURS,
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

/** Rows between waits for the zip to catch up (about 300 KB of sheet XML). */
const ROWS_PER_DRAIN = 500;
const MIN_WIDTH = 6;
const MAX_WIDTH = 60;

const HEADER_STYLE: Partial<ExcelJS.Style> = {
  font: { bold: true },
  fill: { type: "pattern", pattern: "solid", fgColor: { argb: "FFF2F2F2" } },
  border: { bottom: { style: "thin", color: { argb: "FFBFBFBF" } } },
  alignment: { vertical: "bottom", wrapText: true },
};

/** A header wraps rather than widen its column past this: 42 columns must print legibly. */
const HEADER_WIDTH = 14;

/** Landscape A4, all columns on the page's width, as many pages down as it takes. */
export const PRINT_SETUP = {
  orientation: "landscape",
  paperSize: 9,
  fitToPage: true,
  fitToWidth: 1,
  fitToHeight: 0,
  margins: { left: 0.4, right: 0.4, top: 0.5, bottom: 0.5, header: 0.3, footer: 0.3 },
} as const;

/** Writes one table sheet into a streaming workbook and commits it. */
export async function writeTableSheet<R>(
  book: ExcelJS.stream.xlsx.WorkbookWriter,
  spec: TableSheet<R>,
): Promise<void> {
  const { columns } = spec;
  const sheet = book.addWorksheet(spec.name, {
    views: [{ state: "frozen", xSplit: spec.frozenColumns ?? 0, ySplit: 1 }],
    // Printed: landscape, as wide as the page, the header on every page, so a few projects
    // print on a page or two instead of a column per page.
    pageSetup: { ...PRINT_SETUP, printTitlesRow: "1:1" },
  });
  const widths = fitWidths(spec);
  sheet.columns = columns.map((column, i) => ({
    width: widths[i],
    style: styleOf(column.kind),
  }));

  const header = sheet.addRow(columns.map((c) => c.header));
  header.eachCell((cell) => {
    cell.style = HEADER_STYLE;
  });
  // Neither Excel nor LibreOffice grows a streamed row to fit wrapped text: say how tall.
  header.height = 15 * Math.max(...columns.map((c, i) => wrappedLines(c.header, widths[i] ?? 10)));
  header.commit();

  let written = 1;
  for (const row of spec.rows()) {
    const added = sheet.addRow(columns.map((c) => c.value(row)));
    const bold = spec.emphasis?.(row) === true;
    columns.forEach((column, i) => {
      const colour = column.tone ? TONE_COLOURS[column.tone(row)] : undefined;
      if (!colour && !bold) return;
      const cell = added.getCell(i + 1);
      cell.font = {
        ...(bold ? { bold: true } : {}),
        ...(colour ? { color: { argb: colour } } : {}),
      };
    });
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
  // Autofilter buttons sit on the header's right edge: leave room for them. Long headers wrap,
  // but their longest word still fits.
  const longest = spec.columns.map(
    (c) =>
      Math.max(
        Math.min(c.header.length, HEADER_WIDTH),
        ...c.header.split(" ").map((w) => w.length),
      ) + 2,
  );
  for (const row of spec.rows()) {
    spec.columns.forEach((column, i) => {
      const length = displayLength(column.kind, column.value(row));
      if (length > (longest[i] ?? 0)) longest[i] = length;
    });
  }
  return longest.map((n) => Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, n + 2)));
}

/** Lines `text` word-wraps to in a column `width` characters wide (less the filter button). */
function wrappedLines(text: string, width: number): number {
  const room = Math.max(1, width - 4);
  let lines = 1;
  let used = 0;
  for (const word of text.split(" ")) {
    const need = used === 0 ? word.length : used + 1 + word.length;
    if (need > room && used > 0) {
      lines += 1;
      used = word.length;
    } else {
      used = need;
    }
  }
  return lines;
}

function styleOf(kind: CellKind): Partial<ExcelJS.Style> {
  const numFmt = NUMBER_FORMATS[kind];
  return numFmt ? { numFmt } : {};
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

/** Enough buffered XML to keep the compressor busy while we build the next rows. */
const MAX_BUFFERED = 2 * 1024 * 1024;

type Pipe = EventEmitter & {
  writableLength?: number;
  writableNeedDrain?: boolean;
  _writableState?: { length?: number; needDrain?: boolean };
};

function overfull(value: unknown): value is Pipe {
  if (!(value instanceof EventEmitter)) return false;
  const pipe = value as Pipe;
  const buffered = pipe.writableLength ?? pipe._writableState?.length ?? 0;
  // 'drain' only fires once a write has been refused, so wait only when one has.
  const refused = pipe.writableNeedDrain ?? pipe._writableState?.needDrain ?? false;
  return refused && buffered > MAX_BUFFERED;
}
