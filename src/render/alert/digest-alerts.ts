import { isRate, lowIsBad, metricName } from "../../alerts/alert-metrics.js";
import { TEAM_SCOPE } from "../../alerts/scope-windows.js";
import type { AlertRule } from "../../alerts/types.js";
import type { FiringAlert } from "../../report/types.js";
import type { AlertEvaluation, AlertState } from "../../state/ledger.js";
import type { AlertRow } from "../workbook/workbook-alerts.js";

// Alerts as a digest shows them: the firing ones at the top of the message, and every
// evaluation of the period in the workbook's Alerts sheet — both read from the ledger's states
// and evaluations, with the alert's config for its thresholds.

/** The team's alert rules: all these views need of its config. */
type TeamAlerts = { readonly alerts: readonly AlertRule[] };

/**
 * The firing alerts a digest shows: rate alerts only, as fractions like every rate of the
 * report (a runs count has no place in its percent column).
 */
export function firingAlertsOf(team: TeamAlerts, states: readonly AlertState[]): FiringAlert[] {
  return states.flatMap((s) => {
    const alert = team.alerts.find((a) => a.name === s.alert);
    if (!alert || !isRate(alert.metric) || s.lastValue === null) return [];
    if (s.state !== "warn" && s.state !== "critical") return [];
    const threshold = s.state === "critical" ? alert.criticalAt : alert.warnAt;
    const projectId = s.scope === TEAM_SCOPE ? null : s.scope;
    return [
      {
        alert: s.alert,
        severity: s.state,
        value: s.lastValue / 100,
        threshold: threshold / 100,
        projectId,
        metricName: metricName(alert.metric),
        direction: lowIsBad(alert.metric) ? ("below" as const) : ("above" as const),
      },
    ];
  });
}

/** One row per scope of a recorded evaluation, for the Alerts sheet. */
export function alertRows(team: TeamAlerts, evaluation: AlertEvaluation): AlertRow[] {
  const alert = team.alerts.find((a) => a.name === evaluation.alert);
  const rate = alert === undefined || isRate(alert.metric);
  return evaluation.results.map((r) => {
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
      projectId: r.scope === TEAM_SCOPE ? null : r.scope,
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
