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
import { projectUrl } from "../project-links.js";
import { type CellTone, cellText, excelDuration } from "./workbook-cells.js";
import type { SheetColumn, TableSheet } from "./workbook-sheet.js";

// The `Summary` sheet: a row per project and a `Total` row with the figures people compare —
// runs, the three rates, the mean run duration — each beside its prior value and its change,
// the rates also with the change's significance. Nineteen columns, so it prints legibly on one
// page's width; the counts behind them are on `Runs` and `Tests` (workbook-counts.ts). Scripts
// should read columns by header, not by position.

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

export type SummaryColumn = SheetColumn<SummaryRow>;
type Col = SummaryColumn;
export type CountField = Exclude<keyof Figures, RateFigure | "meanRunDurationMs">;

export const text = (header: string, pick: (r: SummaryRow) => string | null): Col => ({
  header,
  kind: "text",
  value: (r) => {
    const value = pick(r);
    return value === null ? null : cellText(value);
  },
});

/** The project's name, linked to its dashboard when the team's template names a project. */
export const projectName = (dashboardUrl: string | null): Col => ({
  ...text("Project", (r) => r.project),
  link: (r) => (r.projectId === null ? null : projectUrl(dashboardUrl, r.projectId)),
});

export const count = (
  header: string,
  field: CountField,
  when: "current" | "prior" = "current",
): Col => ({
  header,
  kind: "count",
  value: (r) => r[when]?.[field] ?? null,
});

const rate = (header: string, field: RateFigure, when: "current" | "prior" = "current"): Col => ({
  header,
  kind: "rate",
  value: (r) => r[when]?.[field] ?? null,
});

export const duration = (header: string, when: "current" | "prior"): Col => ({
  header,
  kind: "duration",
  value: (r) => excelDuration(r[when]?.meanRunDurationMs ?? null),
});

/** A rate's change in percentage points, stored exact: the format rounds it to 0.1. */
const ppDelta = (header: string, field: RateFigure): Col => ({
  header,
  kind: "pp",
  value: (r) => {
    const delta = r.deltas?.[field];
    return delta?.kind === "change" ? delta.pp : null;
  },
  tone: (r) => toneOf(field, r.deltas?.[field]),
});

/** A count's or duration's change as a fraction of the prior, stored exact: the format rounds. */
export const pctDelta = (header: string, field: AmountFigure): Col => ({
  header,
  kind: "pct",
  value: (r) => {
    const delta = r.deltas?.[field];
    return delta?.kind === "change" ? delta.pct : null;
  },
  tone: (r) => toneOf(field, r.deltas?.[field]),
});

export const significance = (header: string, field: RateFigure | AmountFigure): Col => ({
  header,
  kind: "text",
  value: (r) => {
    if (r.status === "unavailable") return "unavailable";
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
function significanceOf(delta: RateDelta | AmountDelta): string {
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

/** A rate beside its prior, its change and whether the change is significant. */
const rateGroup = (name: string, field: RateFigure): Col[] => [
  rate(name, field),
  rate(`${name} (prior)`, field, "prior"),
  ppDelta(`${name} Δ (pp)`, field),
  significance(`${name} Δ significance`, field),
];

/**
 * Summary's columns: 19, so it prints at about 70% or more fitted to one page's width. Notes
 * (why a project is unavailable, what the total leaves out) are on `Runs`; an unavailable
 * project's significance cells say so here.
 */
function summaryColumns(dashboardUrl: string | null): Col[] {
  return [
    projectName(dashboardUrl),
    count("Runs", "runs"),
    count("Runs (prior)", "runs", "prior"),
    pctDelta("Runs Δ (%)", "runs"),
    ...rateGroup("Run pass rate", "runPassRate"),
    ...rateGroup("Flaky rate", "flakyRate"),
    ...rateGroup("Test pass rate", "testPassRate"),
    duration("Mean run duration", "current"),
    duration("Mean run duration (prior)", "prior"),
    pctDelta("Mean run duration Δ (%)", "meanRunDurationMs"),
  ];
}

/** The Summary sheet of a report. */
export function summarySheet(report: Report): TableSheet<SummaryRow> {
  const rows = summaryRows(report);
  return {
    name: "Summary",
    columns: summaryColumns(report.dashboardUrl),
    rows: () => rows,
    emphasis: (r) => r.status === "total",
    frozenColumns: 1,
    // Sorting or filtering the projects must never move the Total row in among them.
    filterRows: rows.length - 1,
  };
}
