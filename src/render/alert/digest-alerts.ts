import type { Team } from "../../config/types.js";
import type { FiringAlert } from "../../report/types.js";
import type { AlertEvaluation, AlertState } from "../../state/ledger.js";
import type { AlertRow } from "../workbook/workbook-alerts.js";
import { METRIC_NAME } from "./alert-view.js";

// Alerts as a digest shows them: the firing ones at the top of the message, and every
// evaluation of the period in the workbook's Alerts sheet — both read from the ledger's states
// and evaluations, with the alert's config for its thresholds.

/**
 * The firing alerts a digest shows: rate alerts only, as fractions like every rate of the
 * report (a runs count has no place in its percent column).
 */
export function firingAlertsOf(team: Team, states: readonly AlertState[]): FiringAlert[] {
  return states.flatMap((s) => {
    const alert = team.alerts.find((a) => a.name === s.alert);
    if (!alert || alert.metric === "runs" || s.lastValue === null) return [];
    if (s.state !== "warn" && s.state !== "critical") return [];
    const threshold = s.state === "critical" ? alert.criticalAt : alert.warnAt;
    const projectId = s.scope === "team" ? null : s.scope;
    return [
      {
        alert: s.alert,
        severity: s.state,
        value: s.lastValue / 100,
        threshold: threshold / 100,
        projectId,
        metricName: METRIC_NAME[alert.metric],
        direction: alert.metric.endsWith("pass_rate") ? ("below" as const) : ("above" as const),
      },
    ];
  });
}

/** A scope's outcome as `run-alert.ts` records it in an evaluation's results. */
interface StoredResult {
  scope: string;
  name: string;
  value: number | null;
  size: number;
  state: AlertState["state"];
  transition: string | null;
}

/** One row per scope of a recorded evaluation, for the Alerts sheet. */
export function alertRows(team: Team, evaluation: AlertEvaluation): AlertRow[] {
  const alert = team.alerts.find((a) => a.name === evaluation.alert);
  const rate = alert?.metric !== "runs";
  return (JSON.parse(evaluation.results) as StoredResult[]).map((r) => {
    const threshold = r.state === "critical" ? alert?.criticalAt : alert?.warnAt;
    const state =
      r.state === "warn" || r.state === "critical"
        ? r.state
        : r.state === "no_data"
          ? "no verdict"
          : "ok";
    const what = r.transition ?? (r.state === "pending" ? "pending" : null);
    return {
      alert: evaluation.alert,
      state,
      projectId: r.scope === "team" ? null : r.scope,
      project: r.name,
      value: rate && r.value !== null ? r.value / 100 : null,
      threshold: rate && threshold !== undefined ? threshold / 100 : null,
      tests: rate ? r.size : null,
      note: [evaluation.period.end, what, rate ? null : `runs ${r.value ?? "—"}`]
        .filter((p) => p !== null)
        .join(" · "),
    };
  });
}
