import type {
  AmountDelta,
  AmountFigure,
  Deltas,
  Figures,
  RateDelta,
  RateFigure,
  Report,
} from "../../report/types.js";
import { deltaView, toneOf as toneOfView } from "../delta-view.js";
import { type CellTone, cellText, shownDelta } from "./workbook-cells.js";
import type { SheetColumn, TableSheet } from "./workbook-sheet.js";

// The `Summary` sheet: a row per project and a `Total` row, each with the current value, the
// prior value and the delta of every figure, grouped by figure. Scripts should read columns by
// header, not by position: the grouping moved them.

/** One line of the sheet: a project (available or not) or the team total. */
export interface SummaryRow {
  project: string;
  projectId: string | null;
  status: "ok" | "unavailable" | "total";
  current: Figures | null;
  prior: Figures | null;
  deltas: Deltas | null;
  note: string | null;
}

/** The rows in report order, the total last. */
export function summaryRows(report: Report): SummaryRow[] {
  const rows: SummaryRow[] = report.projects.map((p) =>
    p.status === "ok"
      ? {
          project: p.name,
          projectId: p.projectId,
          status: "ok",
          current: p.current,
          prior: p.prior,
          deltas: p.deltas,
          note: p.priorNote,
        }
      : {
          project: p.name,
          projectId: p.projectId,
          status: "unavailable",
          current: null,
          prior: null,
          deltas: null,
          note: `${p.reason.code}: ${p.reason.message}`,
        },
  );
  const { total } = report;
  const notes = [
    total.excluded.length > 0 ? `excludes ${total.excluded.join(", ")} (unavailable)` : null,
    total.priorNote,
  ].filter((n): n is string => n !== null);
  rows.push({
    project: "Total",
    projectId: null,
    status: "total",
    current: total.current,
    prior: total.prior,
    deltas: total.deltas,
    note: notes.length > 0 ? notes.join("; ") : null,
  });
  return rows;
}

type Col = SheetColumn<SummaryRow>;
type CountField = Exclude<keyof Figures, RateFigure | "meanRunDurationMs">;

const text = (header: string, pick: (r: SummaryRow) => string | null): Col => ({
  header,
  kind: "text",
  value: (r) => {
    const value = pick(r);
    return value === null ? null : cellText(value);
  },
});

const count = (header: string, field: CountField, when: "current" | "prior" = "current"): Col => ({
  header,
  kind: "count",
  value: (r) => r[when]?.[field] ?? null,
});

const rate = (header: string, field: RateFigure, when: "current" | "prior" = "current"): Col => ({
  header,
  kind: "rate",
  value: (r) => r[when]?.[field] ?? null,
});

const seconds = (header: string, when: "current" | "prior"): Col => ({
  header,
  kind: "seconds",
  value: (r) => {
    const ms = r[when]?.meanRunDurationMs ?? null;
    return ms === null ? null : ms / 1000;
  },
});

const ppDelta = (header: string, field: RateFigure): Col => ({
  header,
  kind: "pp",
  value: (r) => {
    const delta = r.deltas?.[field];
    return delta?.kind === "change" ? shownDelta("pp", delta.pp) : null;
  },
  tone: (r) => toneOf(field, r.deltas?.[field]),
});

const pctDelta = (header: string, field: AmountFigure): Col => ({
  header,
  kind: "pct",
  value: (r) => {
    const delta = r.deltas?.[field];
    return delta?.kind === "change" ? shownDelta("pct", delta.pct) : null;
  },
  tone: (r) => toneOf(field, r.deltas?.[field]),
});

const significance = (header: string, field: RateFigure): Col => ({
  header,
  kind: "text",
  value: (r) => {
    const delta = r.deltas?.[field];
    return delta ? significanceOf(delta) : null;
  },
});

function toneOf(
  field: RateFigure | AmountFigure,
  delta: RateDelta | AmountDelta | undefined,
): CellTone {
  return delta ? toneOfView(deltaView(field, delta)) : "neutral";
}

/** Why a delta cell holds what it holds, in words a filter can select on. */
function significanceOf(delta: RateDelta): string {
  switch (delta.kind) {
    case "change":
      // As the digest colours it: significant and large enough to matter, else noise.
      return delta.significant && delta.large ? "significant" : "noise";
    case "new":
      return "new";
    case "none":
      return "no data";
    case "unavailable":
      return "prior n/a";
  }
}

export const SUMMARY_COLUMNS: readonly Col[] = [
  // Grouped by figure: its value, prior, change and significance side by side, so a reader
  // (and a print) takes one figure in at a glance; the raw counts come last.
  text("Project", (r) => r.project),
  text("Project ID", (r) => r.projectId),
  count("Runs", "runs"),
  count("Runs (prior)", "runs", "prior"),
  pctDelta("Runs Δ (%)", "runs"),
  rate("Run pass rate", "runPassRate"),
  rate("Run pass rate (prior)", "runPassRate", "prior"),
  ppDelta("Run pass rate Δ (pp)", "runPassRate"),
  significance("Run pass rate Δ significance", "runPassRate"),
  rate("Flaky rate", "flakyRate"),
  rate("Flaky rate (prior)", "flakyRate", "prior"),
  ppDelta("Flaky rate Δ (pp)", "flakyRate"),
  significance("Flaky rate Δ significance", "flakyRate"),
  rate("Test pass rate", "testPassRate"),
  rate("Test pass rate (prior)", "testPassRate", "prior"),
  ppDelta("Test pass rate Δ (pp)", "testPassRate"),
  significance("Test pass rate Δ significance", "testPassRate"),
  seconds("Mean run duration (s)", "current"),
  seconds("Mean run duration (s) (prior)", "prior"),
  pctDelta("Mean run duration Δ (%)", "meanRunDurationMs"),
  count("Tests", "tests"),
  count("Tests (prior)", "tests", "prior"),
  pctDelta("Tests Δ (%)", "tests"),
  count("Tests failed", "testsFailed"),
  count("Tests failed (prior)", "testsFailed", "prior"),
  pctDelta("Tests failed Δ (%)", "testsFailed"),
  count("Tests flaky", "testsFlaky"),
  count("Tests flaky (prior)", "testsFlaky", "prior"),
  pctDelta("Tests flaky Δ (%)", "testsFlaky"),
  count("Tests timed out", "testsTimedOut"),
  count("Tests timed out (prior)", "testsTimedOut", "prior"),
  pctDelta("Tests timed out Δ (%)", "testsTimedOut"),
  count("Runs passed", "runsPassed"),
  count("Runs passed (prior)", "runsPassed", "prior"),
  count("Runs failed", "runsFailed"),
  count("Runs failed (prior)", "runsFailed", "prior"),
  count("Tests passed", "testsPassed"),
  count("Tests passed (prior)", "testsPassed", "prior"),
  count("Tests skipped", "testsSkipped"),
  count("Tests skipped (prior)", "testsSkipped", "prior"),
  text("Status", (r) => r.status),
  text("Note", (r) => r.note),
];

/** The Summary sheet of a report. */
export function summarySheet(report: Report): TableSheet<SummaryRow> {
  const rows = summaryRows(report);
  return {
    name: "Summary",
    columns: SUMMARY_COLUMNS,
    rows: () => rows,
    emphasis: (r) => r.status === "total",
    frozenColumns: 1,
    // Sorting or filtering the projects must never move the Total row in among them.
    filterRows: rows.length - 1,
  };
}
