import { Writable } from "node:stream";
import WorkbookWriter from "exceljs/lib/stream/xlsx/workbook-writer.js";
import type { Report } from "../../report/types.js";
import { writeAboutSheet } from "./workbook-about.js";
import { type AlertRow, alertsSheet, firingAlertRows } from "./workbook-alerts.js";
import { type WorkbookChart, withChartsSheet } from "./workbook-charts.js";
import { runsSheet, testsSheet } from "./workbook-counts.js";
import { dailySheet } from "./workbook-daily.js";
import { writeTableSheet } from "./workbook-sheet.js";
import { slicesSheet } from "./workbook-slices.js";
import { summarySheet } from "./workbook-summary.js";

export type { AlertRow } from "./workbook-alerts.js";
export type { WorkbookChart } from "./workbook-charts.js";

// The XLSX export of a report (docs/configuration.md, "The workbook"): `About`, `Summary`,
// `Runs`, `Tests`, `Daily`, where alerts ran, `Alerts`, and with a digest's charts, `Charts`. Written once, through exceljs's streaming writer, to any stream: a
// buffer for mail attachments, a file for `export`.

export interface WorkbookOptions {
  /** Alert evaluations to list; without them, the report's firing alerts (if any) are listed. */
  alerts?: readonly AlertRow[];
  /** When the workbook was made (ISO instant); defaults to the report's `generatedAt`. */
  generatedAt?: string;
  /** The digest's trend charts, placed on a `Charts` sheet (`renderWorkbook` only). */
  charts?: readonly WorkbookChart[];
}

export const XLSX_CONTENT_TYPE =
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** Writes the workbook into `stream`; resolves once the stream has taken all of it. */
export async function writeWorkbook(
  report: Report,
  stream: Writable,
  options: WorkbookOptions = {},
): Promise<void> {
  const generatedAt = options.generatedAt ?? report.generatedAt;
  const created = new Date(generatedAt);
  const book = new WorkbookWriter({
    stream,
    useStyles: true,
    // Shared strings give plain `t="s"` text cells (never formula-typed) and a smaller file;
    // only distinct strings are kept in memory, which for this workbook are few.
    useSharedStrings: true,
  });
  // Fixed metadata, so the same report gives the same document properties (no clock read here).
  book.creator = "insights-reporter";
  book.lastModifiedBy = "insights-reporter";
  if (!Number.isNaN(created.getTime())) {
    book.created = created;
    book.modified = created;
  }
  // Open on Summary; About stays first for readers who want the context.
  book.views = [
    { x: 0, y: 0, width: 20000, height: 12000, firstSheet: 0, activeTab: 1, visibility: "visible" },
  ];

  writeAboutSheet(book, report, generatedAt);
  await writeTableSheet(book, summarySheet(report));
  await writeTableSheet(book, runsSheet(report));
  await writeTableSheet(book, testsSheet(report));
  await writeTableSheet(book, dailySheet(report));
  const alerts = options.alerts ?? (report.alerts.length > 0 ? firingAlertRows(report) : null);
  if (alerts) await writeTableSheet(book, alertsSheet(alerts));
  const slices = slicesSheet(report);
  if (slices) await writeTableSheet(book, slices);
  await book.commit();
}

/** The workbook as bytes, e.g. for an email attachment or a Slack upload. */
export async function renderWorkbook(
  report: Report,
  options: WorkbookOptions = {},
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  // A plain sink, not a PassThrough: nothing reads from it, so it must never apply backpressure.
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk);
      callback();
    },
  });
  await writeWorkbook(report, sink, options);
  const book = Buffer.concat(chunks);
  return options.charts?.length ? withChartsSheet(book, options.charts) : book;
}
