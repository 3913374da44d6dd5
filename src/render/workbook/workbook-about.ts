import type ExcelJS from "exceljs";
import { DateTime } from "luxon";
import type { Report } from "../../report/types.js";
import { comparisonName } from "../comparison-label.js";
import { formatPeriod } from "../format.js";
import { cellText, fontOf } from "./workbook-cells.js";
import { PRINT_SETUP, wrappedLines } from "./workbook-sheet.js";

// The `About` sheet: what the workbook covers (team, period, prior period, zone, filters, when
// it was made) and how its rates are defined, so a file forwarded by mail still explains itself.

type AboutLine = { cells: string[]; bold?: boolean };

/** A column is never wider than this: its text wraps instead. */
const MAX_WIDTH = 40;

const DEFINITIONS: [string, string][] = [
  ["Run pass rate", "passed runs ÷ (passed + failed runs)"],
  [
    "Test pass rate",
    "passed results (flaky included) ÷ all results (passed + failed + skipped + timed out)",
  ],
  ["Flaky rate", "flaky results ÷ all results"],
  [
    "Δ (pp)",
    "change of a rate in percentage points against the prior period; “noise” when a two-proportion z-test finds no significant difference at 95%",
  ],
  [
    "Δ (%)",
    "change of a count or duration in percent of the prior value; empty when the prior was 0",
  ],
  [
    "Total",
    "summed counts of the available projects (mean run duration weighted by runs), never a mean of percentages",
  ],
  ["Empty cell", "no data (no runs or no results): never shown as 0%"],
  ["Dates", "whole local days in the team's time zone"],
];

/** The lines of the About sheet, top to bottom. */
export function aboutLines(report: Report, generatedAt: string): AboutLine[] {
  const { team, periods } = report;
  // Named as the digest names it ("same day last week"), so the file and the message agree.
  const compared = comparisonName(periods);
  const lines: AboutLine[] = [
    { cells: [`Test insights — ${team.title}`], bold: true },
    { cells: [] },
    { cells: ["Team", `${team.title} (${team.name})`] },
    { cells: ["Report", report.digest] },
    {
      cells: [
        "Period",
        `${formatPeriod(periods.current)} (${periods.current.start} to ${periods.current.end})`,
      ],
    },
    {
      cells: [
        "Prior period",
        `${formatPeriod(periods.prior)} (${periods.prior.start} to ${periods.prior.end}), ${compared}`,
      ],
    },
    { cells: ["Time zone", team.timezone] },
    { cells: ["Generated at", describeInstant(generatedAt, team.timezone)] },
  ];
  if (report.total.priorNote) lines.push({ cells: ["Prior data", report.total.priorNote] });
  if (report.missingDaysNote) lines.push({ cells: ["Missing days", report.missingDaysNote] });
  if (report.total.excluded.length > 0) {
    lines.push({
      cells: ["Left out of the total", `${report.total.excluded.join(", ")} (unavailable)`],
    });
  }

  lines.push(
    { cells: [] },
    { cells: ["Project", "Project ID", "Branch", "Author", "Tags"], bold: true },
  );
  for (const p of report.projects) {
    const { branch, author, tags } = p.filters;
    lines.push({
      cells: [p.name, p.projectId, branch ?? "any", author ?? "any", tags.join(", ") || "any"],
    });
  }

  lines.push({ cells: [] }, { cells: ["How the numbers are computed"], bold: true });
  for (const [term, meaning] of DEFINITIONS) lines.push({ cells: [term, meaning] });
  return lines;
}

/** Columns of the About sheet: labels, then the project table's four (values span them). */
const COLUMNS = 5;
/** Points per line of 11 pt text, and of the 14 pt title. */
const LINE_HEIGHT = 15;
const TITLE_SIZE = 14;
const TITLE_LINE_HEIGHT = 20;
/** Width the merged value cells get at least, so a definition wraps to a line or two. */
const MIN_VALUE_WIDTH = 100;

/** Writes the About sheet and commits it. */
export function writeAboutSheet(
  book: ExcelJS.stream.xlsx.WorkbookWriter,
  report: Report,
  generatedAt: string,
): void {
  const lines = aboutLines(report, generatedAt);
  const sheet = book.addWorksheet("About", { pageSetup: { ...PRINT_SETUP } });
  const widths = fitWidths(lines);
  sheet.columns = widths.map((width) => ({ width, style: { font: fontOf() } }));
  const total = widths.reduce((sum, w) => sum + w, 0);
  lines.forEach((line, index) => {
    const r = index + 1;
    const row = sheet.addRow(line.cells.map(cellText));
    row.alignment = { vertical: "top", wrapText: true };
    // Neither LibreOffice nor Excel grows a streamed row to fit wrapped text, so every row gets
    // the height of its tallest cell. A lone cell (a title) and a label's value span the
    // columns to the right, merged, so they wrap in the sheet's whole width, not in one column.
    const spans = spanWidths(line.cells.length, widths, total);
    const title = index === 0;
    const tall = Math.max(1, ...line.cells.map((text, i) => wrappedLines(text, spans[i] ?? 10)));
    row.height = tall * (title ? TITLE_LINE_HEIGHT : LINE_HEIGHT);
    line.cells.forEach((_, i) => {
      row.getCell(i + 1).font = fontOf({
        bold: line.bold === true || i === 0,
        ...(title ? { size: TITLE_SIZE } : {}),
      });
    });
    if (line.cells.length === 1) sheet.mergeCells(r, 1, r, COLUMNS);
    if (line.cells.length === 2) sheet.mergeCells(r, 2, r, COLUMNS);
    row.commit();
  });
  sheet.commit();
}

/** The width each cell of a row shows in: a lone cell spans all columns, a value all but A. */
function spanWidths(cells: number, widths: readonly number[], total: number): number[] {
  if (cells === 1) return [total];
  if (cells === 2) return [widths[0] ?? 10, total - (widths[0] ?? 10)];
  return [...widths];
}

/**
 * Column A fits the labels and project names; B–E the project table, E widened so the merged
 * value cells are at least MIN_VALUE_WIDTH wide together.
 */
function fitWidths(lines: readonly AboutLine[]): number[] {
  const widths: number[] = Array.from({ length: COLUMNS }, () => 10);
  for (const line of lines) {
    const table = line.cells.length > 2;
    line.cells.forEach((text, i) => {
      if (line.cells.length === 1 || (!table && i > 0)) return;
      // Bold text (labels, the table's header) is about a tenth wider.
      const bold = line.bold === true || i === 0;
      const needed = Math.ceil(text.length * (bold ? 1.1 : 1)) + 2;
      widths[i] = Math.min(MAX_WIDTH, Math.max(widths[i] ?? 10, needed));
    });
  }
  const values = widths.slice(1).reduce((sum, w) => sum + w, 0);
  widths[COLUMNS - 1] = (widths[COLUMNS - 1] ?? 10) + Math.max(0, MIN_VALUE_WIDTH - values);
  return widths;
}

/** "2026-11-16 09:00 Europe/Berlin (2026-11-16 08:00 UTC)"; the raw text if it is not an ISO instant. */
function describeInstant(iso: string, zone: string): string {
  const instant = DateTime.fromISO(iso, { zone });
  if (!instant.isValid) return iso;
  const utc = instant.toUTC().toFormat("yyyy-LL-dd HH:mm");
  return `${instant.toFormat("yyyy-LL-dd HH:mm")} ${zone} (${utc} UTC)`;
}
