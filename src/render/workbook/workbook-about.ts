import type ExcelJS from "exceljs";
import { DateTime } from "luxon";
import type { Report } from "../../report/types.js";
import { formatPeriod } from "../format.js";
import { cellText } from "./workbook-cells.js";
import { PRINT_SETUP } from "./workbook-sheet.js";

// The `About` sheet: what the workbook covers (team, period, prior period, zone, filters, when
// it was made) and how its rates are defined, so a file forwarded by mail still explains itself.

type AboutLine = { cells: string[]; bold?: boolean };

const MAX_WIDTH = 100;

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
  const compared =
    periods.compareTo === "same_period_last_week"
      ? "same period a week earlier"
      : "the period before";
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

/** Writes the About sheet and commits it. */
export function writeAboutSheet(
  book: ExcelJS.stream.xlsx.WorkbookWriter,
  report: Report,
  generatedAt: string,
): void {
  const lines = aboutLines(report, generatedAt);
  const sheet = book.addWorksheet("About", { pageSetup: { ...PRINT_SETUP } });
  const widths = fitWidths(lines);
  sheet.columns = widths.map((width) => ({ width }));
  for (const line of lines) {
    const row = sheet.addRow(line.cells.map(cellText));
    // The streaming writer drops rows without values unless they have a height: keep the spacing.
    // Wrapped text gets its height here: neither LibreOffice nor Excel grows a row written with
    // no height on opening, and the second line of a long note was cut off.
    // A title alone on its line spills into the empty cells beside it: one line.
    row.height = line.cells.length < 2 ? 15 : 15 * linesShown(line.cells, widths);
    row.alignment = { vertical: "top", wrapText: true };
    if (line.bold) row.font = { bold: true };
    else row.getCell(1).font = { bold: true };
    row.commit();
  }
  sheet.commit();
}

/** How many lines the tallest cell of a row wraps to in columns of these widths (characters). */
function linesShown(cells: readonly string[], widths: readonly number[]): number {
  let most = 1;
  cells.forEach((text, i) => {
    const width = Math.max(1, (widths[i] ?? 10) - 1);
    const lines = text
      .split("\n")
      .reduce((n, part) => n + Math.max(1, Math.ceil(part.length / width)), 0);
    most = Math.max(most, lines);
  });
  return most;
}

function fitWidths(lines: readonly AboutLine[]): number[] {
  const widths: number[] = [];
  for (const line of lines) {
    // A title alone on its line may spill into the empty cells beside it.
    if (line.cells.length < 2) continue;
    line.cells.forEach((text, i) => {
      widths[i] = Math.min(MAX_WIDTH, Math.max(widths[i] ?? 10, text.length + 2));
    });
  }
  return widths;
}

/** "2026-11-16 09:00 Europe/Berlin (2026-11-16 08:00 UTC)"; the raw text if it is not an ISO instant. */
function describeInstant(iso: string, zone: string): string {
  const instant = DateTime.fromISO(iso, { zone });
  if (!instant.isValid) return iso;
  const utc = instant.toUTC().toFormat("yyyy-LL-dd HH:mm");
  return `${instant.toFormat("yyyy-LL-dd HH:mm")} ${zone} (${utc} UTC)`;
}
