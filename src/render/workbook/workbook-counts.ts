import type { AmountFigure, Report } from "../../report/types.js";
import type { TableSheet } from "./workbook-sheet.js";
import {
  type CountField,
  count,
  duration,
  pctDelta,
  projectName,
  type SummaryColumn,
  type SummaryRow,
  significance,
  summaryRows,
  text,
} from "./workbook-summary.js";

// The `Runs` and `Tests` sheets: the counts behind Summary's figures, a row per project and a
// `Total` row like Summary's, each count beside its prior and, where the digest compares it,
// its change and significance. Split in two so each prints legibly on one page's width.

/** A count beside its prior, its change and whether the change is significant. */
const countGroup = (name: string, field: CountField & AmountFigure): SummaryColumn[] => [
  count(name, field),
  count(`${name} (prior)`, field, "prior"),
  pctDelta(`${name} Δ (%)`, field),
  significance(`${name} Δ significance`, field),
];

/** A count beside its prior only: the digest never compares it. */
const countPair = (name: string, field: CountField): SummaryColumn[] => [
  count(name, field),
  count(`${name} (prior)`, field, "prior"),
];

function runsColumns(dashboardUrl: string | null): SummaryColumn[] {
  return [
    projectName(dashboardUrl),
    text("Project ID", (r) => r.projectId),
    text("Status", (r) => r.status),
    ...countGroup("Runs", "runs"),
    ...countPair("Runs passed", "runsPassed"),
    ...countPair("Runs failed", "runsFailed"),
    duration("Mean run duration", "current"),
    duration("Mean run duration (prior)", "prior"),
    pctDelta("Mean run duration Δ (%)", "meanRunDurationMs"),
    significance("Mean run duration Δ significance", "meanRunDurationMs"),
    text("Note", (r) => r.note),
  ];
}

function testsColumns(dashboardUrl: string | null): SummaryColumn[] {
  return [
    projectName(dashboardUrl),
    count("Tests", "tests"),
    count("Tests (prior)", "tests", "prior"),
    pctDelta("Tests Δ (%)", "tests"),
    ...countPair("Tests passed", "testsPassed"),
    ...countGroup("Tests failed", "testsFailed"),
    ...countGroup("Tests flaky", "testsFlaky"),
    ...countPair("Tests skipped", "testsSkipped"),
    ...countGroup("Tests timed out", "testsTimedOut"),
  ];
}

function countsSheet(name: string, columns: SummaryColumn[], report: Report) {
  const rows = summaryRows(report);
  const sheet: TableSheet<SummaryRow> = {
    name,
    columns,
    rows: () => rows,
    emphasis: (r) => r.status === "total",
    frozenColumns: 1,
    filterRows: rows.length - 1,
  };
  return sheet;
}

/** The Runs sheet: runs, passed and failed runs, mean run duration; status and notes. */
export function runsSheet(report: Report): TableSheet<SummaryRow> {
  return countsSheet("Runs", runsColumns(report.dashboardUrl), report);
}

/** The Tests sheet: test results by outcome. */
export function testsSheet(report: Report): TableSheet<SummaryRow> {
  return countsSheet("Tests", testsColumns(report.dashboardUrl), report);
}
