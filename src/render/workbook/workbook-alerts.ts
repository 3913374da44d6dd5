import type { AlertSeverity, Report } from "../../report/types.js";
import { type CellTone, cellText } from "./workbook-cells.js";
import type { SheetColumn, TableSheet } from "./workbook-sheet.js";

// The `Alerts` sheet, written when alerts ran: one row per alert evaluation (an alert on the
// team total or on one project), with its state, value and threshold.

/** One evaluated alert, as the workbook shows it. Rates are fractions, like the report's. */
export interface AlertRow {
  alert: string;
  /** After this evaluation; "no verdict" when there were too few results (min_tests). */
  state: AlertSeverity | "ok" | "no verdict";
  /** null for an alert on the team total. */
  projectId: string | null;
  /** Display name of the project, or the team's title for a team alert. */
  project: string;
  /** The measured value (e.g. flaky rate), or null without data. */
  value: number | null;
  /** The threshold it was compared with (the one crossed, when firing). */
  threshold: number | null;
  /** Test results behind the value. */
  tests: number | null;
  /** e.g. "raised", "resolved", "below min_tests (120 < 200)". */
  note: string | null;
}

type Col = SheetColumn<AlertRow>;

const STATE_TONE: Record<AlertRow["state"], CellTone> = {
  critical: "bad",
  warn: "warn",
  ok: "good",
  "no verdict": "neutral",
};

export const ALERT_COLUMNS: readonly Col[] = [
  { header: "Alert", kind: "text", value: (r) => cellText(r.alert) },
  { header: "State", kind: "text", value: (r) => r.state, tone: (r) => STATE_TONE[r.state] },
  { header: "Project", kind: "text", value: (r) => cellText(r.project) },
  {
    header: "Project ID",
    kind: "text",
    value: (r) => (r.projectId === null ? null : cellText(r.projectId)),
  },
  { header: "Value", kind: "rate", value: (r) => r.value },
  { header: "Threshold", kind: "rate", value: (r) => r.threshold },
  { header: "Tests", kind: "count", value: (r) => r.tests },
  { header: "Note", kind: "text", value: (r) => (r.note === null ? null : cellText(r.note)) },
];

/** The report's firing alerts as rows, for when the caller has no fuller evaluation to give. */
export function firingAlertRows(report: Report): AlertRow[] {
  const names = new Map(report.projects.map((p) => [p.projectId, p.name]));
  return report.alerts.map((a) => ({
    alert: a.alert,
    state: a.severity,
    projectId: a.projectId,
    project: a.projectId === null ? report.team.title : (names.get(a.projectId) ?? a.projectId),
    value: a.value,
    threshold: a.threshold,
    tests: null,
    note: null,
  }));
}

/** The Alerts sheet for these rows. */
export function alertsSheet(rows: readonly AlertRow[]): TableSheet<AlertRow> {
  return { name: "Alerts", columns: ALERT_COLUMNS, rows: () => rows };
}
