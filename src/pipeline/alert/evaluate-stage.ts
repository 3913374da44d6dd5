import { baselineSpans, withBaselines } from "../../alerts/baseline-windows.js";
import { evaluateAlert } from "../../alerts/evaluate-alert.js";
import { recentResolutions } from "../../alerts/fire-history.js";
import { toScopeState } from "../../alerts/ledger-state.js";
import { scopeWindows, trendDays } from "../../alerts/scope-windows.js";
import type { Evaluation } from "../../alerts/types.js";
import { collectInsights, collectSpan } from "../../insights/collect-insights.js";
import { addDays, periodDays } from "../../periods/calendar-date.js";
import type { Period } from "../../periods/types.js";
import { buildReport } from "../../report/build-report.js";
import { figuresFromCounts } from "../../report/figures.js";
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
  const windows = scopeWindows(report, days, job.alert.scope);
  return evaluateAlert({
    rule: job.alert,
    windows: job.alert.against
      ? withBaselines(
          windows,
          await baselineFigures(job, window, deps),
          report.projects.flatMap((p) => (p.status === "ok" ? [p.projectId] : [])),
        )
      : windows,
    states,
    now: job.fireAt.toISOString(),
    key,
    resolvedRecently: await resolvedRecently(job, key, window, deps),
  });
}

/** Days of recorded evaluations read back for a fire that resolved lately (a regression). */
const FIRE_LOOKBACK_DAYS = 90;

/** Each scope's fire that resolved within 7 days before this window, from the ledger. */
async function resolvedRecently(job: AlertJob, key: string, window: Period, deps: AlertDeps) {
  const recorded = await deps.ledger?.alertEvaluations({
    team: job.team.name,
    from: addDays(window.end, -FIRE_LOOKBACK_DAYS),
    to: window.end,
  });
  const own = (recorded ?? []).filter((e) => e.alert === job.alert.name && e.key !== key);
  return recentResolutions(own, window.end);
}

/** Each baseline window's figures by project id (null where it could not be fetched). */
async function baselineFigures(job: AlertJob, window: Period, deps: AlertDeps) {
  const spans = await Promise.all(
    baselineSpans(window).map((span) => collectSpan(deps.api, job.team, span, deps.cache)),
  );
  return spans.map(
    (outcomes) =>
      new Map(
        [...outcomes].map(([id, o]) => [
          id,
          o.ok ? figuresFromCounts(o.insights.overall.runs, o.insights.overall.tests) : null,
        ]),
      ),
  );
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
