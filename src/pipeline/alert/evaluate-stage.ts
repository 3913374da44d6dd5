import { evaluateAlert } from "../../alerts/evaluate-alert.js";
import { toScopeState } from "../../alerts/ledger-state.js";
import { scopeWindows, trendDays } from "../../alerts/scope-windows.js";
import type { Evaluation } from "../../alerts/types.js";
import { collectInsights } from "../../insights/collect-insights.js";
import { addDays, periodDays } from "../../periods/calendar-date.js";
import type { Period } from "../../periods/types.js";
import { buildReport } from "../../report/build-report.js";
import type { AlertJob } from "./alert-slot.js";
import type { AlertDeps } from "./alert-types.js";

// The alert's collect and evaluate stages: the insights of the team's projects over the window
// and the trend before it → each scope's sample against its last state (`alerts/`).

export async function evaluate(
  job: AlertJob,
  key: string,
  window: Period,
  deps: AlertDeps,
): Promise<Evaluation> {
  const days = periodDays(window);
  const { trend, prior } = alertSpans(window);
  const periods = {
    kind: job.alert.window,
    compareTo: "previous_period" as const,
    current: trend,
    prior,
  };
  const projects = await collectInsights(deps.api, job.team, periods, deps.cache);
  const report = buildReport({
    team: { name: job.team.name, title: job.team.title, timezone: job.team.timezone },
    digest: job.alert.name,
    periods,
    generatedAt: job.fireAt.toISOString(),
    dashboardUrl: job.team.dashboardUrl,
    projects,
  });
  const states = new Map(
    ((await deps.ledger?.alertStates(job.team.name, job.alert.name)) ?? []).map((s) => [
      s.scope,
      toScopeState(s),
    ]),
  );
  return evaluateAlert({
    rule: job.alert,
    windows: scopeWindows(report, days, job.alert.scope),
    states,
    now: job.fireAt.toISOString(),
    key,
  });
}

/** The spans an evaluation fetches: the trend ending with the window, and the window before. */
export function alertSpans(window: Period): { trend: Period; prior: Period } {
  const days = periodDays(window);
  return {
    // A week of days at least, so a daily alert's sparkline shows the week that led up to it.
    trend: { start: addDays(window.end, 1 - trendDays(days)), end: window.end },
    prior: { start: addDays(window.start, -days), end: addDays(window.start, -1) },
  };
}
