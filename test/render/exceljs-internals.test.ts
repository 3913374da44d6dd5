import { EventEmitter } from "node:events";
import { PassThrough } from "node:stream";
import ExcelJS from "exceljs";
import Workbook from "exceljs/lib/doc/workbook.js";
import WorkbookWriter from "exceljs/lib/stream/xlsx/workbook-writer.js";
import { describe, expect, it } from "vitest";

// render/workbook/workbook-sheet.ts waits for the zip to drain through an exceljs internal: a
// streaming worksheet's `stream.pipes`, whose members report buffered bytes (`writableLength`,
// or `_writableState.length` in the old readable-stream exceljs bundles). exceljs is pinned
// exactly in package.json; this fails if an upgrade moves that internal, so backpressure is
// not lost silently (the writer would fall back to yielding a turn and buffer everything).

describe("the exceljs internals the workbook writer relies on", () => {
  it("a streaming worksheet pipes into emitters that report their buffered length", async () => {
    const out = new PassThrough();
    out.resume();
    const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out });
    const sheet = book.addWorksheet("Daily");
    for (let i = 0; i < 50; i++) sheet.addRow([i, `row ${i}`]).commit();

    const pipes = (sheet as unknown as { stream?: { pipes?: unknown } }).stream?.pipes;
    expect(Array.isArray(pipes)).toBe(true);
    const list = pipes as unknown[];
    expect(list.length).toBeGreaterThan(0);
    for (const pipe of list) {
      expect(pipe).toBeInstanceOf(EventEmitter);
      const p = pipe as { writableLength?: unknown; _writableState?: { length?: unknown } };
      expect(typeof (p.writableLength ?? p._writableState?.length)).toBe("number");
    }
    sheet.commit();
    await book.commit();
  });

  // The workbook loads these two of exceljs's own modules rather than its main entry, which
  // loads every part (src/render/workbook/exceljs-parts.d.ts); an upgrade that moves them fails here.
  it("keeps the streaming writer and the workbook where the workbook imports them from", () => {
    expect(WorkbookWriter).toBe(ExcelJS.stream.xlsx.WorkbookWriter);
    expect(Workbook).toBe(ExcelJS.Workbook);
  });
});
