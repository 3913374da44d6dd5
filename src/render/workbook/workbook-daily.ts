import type { Figures, RateFigure, Report } from "../../report/types.js";
import { cellText, excelDate, excelDuration } from "./workbook-cells.js";
import type { SheetColumn, TableSheet } from "./workbook-sheet.js";

// The `Daily` sheet: a row per available project per day of the period, every day present
// (a day without data has zero counts and empty rates), with a real Excel date.

export interface DailyRow {
  date: string;
  project: string;
  projectId: string;
  figures: Figures;
}

type Col = SheetColumn<DailyRow>;
type CountField = Exclude<keyof Figures, RateFigure | "meanRunDurationMs">;

const count = (header: string, field: CountField): Col => ({
  header,
  kind: "count",
  value: (r) => r.figures[field],
});

const rate = (header: string, field: RateFigure): Col => ({
  header,
  kind: "rate",
  value: (r) => r.figures[field],
});

export const DAILY_COLUMNS: readonly Col[] = [
  { header: "Date", kind: "date", value: (r) => excelDate(r.date) },
  { header: "Project", kind: "text", value: (r) => cellText(r.project) },
  { header: "Project ID", kind: "text", value: (r) => cellText(r.projectId) },
  count("Runs", "runs"),
  count("Runs passed", "runsPassed"),
  count("Runs failed", "runsFailed"),
  rate("Run pass rate", "runPassRate"),
  {
    header: "Mean run duration",
    kind: "duration",
    value: (r) => excelDuration(r.figures.meanRunDurationMs),
  },
  count("Tests", "tests"),
  count("Tests passed", "testsPassed"),
  count("Tests failed", "testsFailed"),
  count("Tests skipped", "testsSkipped"),
  count("Tests flaky", "testsFlaky"),
  count("Tests timed out", "testsTimedOut"),
  rate("Test pass rate", "testPassRate"),
  rate("Flaky rate", "flakyRate"),
];

/** Rows project by project, oldest day first; generated on demand, never held as a list. */
export function* dailyRows(report: Report): Generator<DailyRow> {
  for (const project of report.projects) {
    if (project.status !== "ok") continue;
    for (const point of project.daily) {
      yield {
        date: point.date,
        project: project.name,
        projectId: project.projectId,
        figures: point.figures,
      };
    }
  }
}

/** The Daily sheet of a report. */
export function dailySheet(report: Report): TableSheet<DailyRow> {
  return {
    name: "Daily",
    columns: DAILY_COLUMNS,
    rows: () => dailyRows(report),
  };
}
