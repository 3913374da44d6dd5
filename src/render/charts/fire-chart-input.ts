import { TEAM_SCOPE } from "../../alerts/scope-windows.js";
import type { FetchOutcome } from "../../insights/types.js";
import type { Period } from "../../periods/types.js";
import { dailySeries, sumDailySeries } from "../../report/daily-series.js";
import type { FireChartInput } from "./fire-charts.js";

// What a fire's charts are drawn from, out of what its evaluation fetched: the days from the
// earlier of its two spans to the end of the fired window, each fired project's own, and the
// team's as every project's summed. Pure: the fetching is the caller's.

export interface FireChartSource {
  rule: FireChartInput["rule"];
  /** The fired window. */
  window: Period;
  /** The spans the evaluation fetched: the trend ending with the window, and the window before. */
  spans: { trend: Period; prior: Period };
  projects: readonly { id: string }[];
  /** Each span's outcome per project id, as fetched. */
  fetched: readonly ReadonlyMap<string, FetchOutcome>[];
  /** The scopes that fired (`team` for the team total), with their names. */
  fired: readonly { scope: string; name: string }[];
}

/** The input of `renderFireCharts`: one scope per fired scope, its days over the drawn window. */
export function fireChartInput(source: FireChartSource): FireChartInput {
  const { spans } = source;
  const start = spans.prior.start < spans.trend.start ? spans.prior.start : spans.trend.start;
  const window = { start, end: source.window.end };
  // A project whose span failed has no days there: its days in it read as no data.
  const byProject = new Map(
    source.projects.map((project) => [
      project.id,
      dailySeries(
        source.fetched.flatMap((outcomes) => {
          const outcome = outcomes.get(project.id);
          return outcome?.ok ? outcome.insights.days : [];
        }),
        window,
      ),
    ]),
  );
  return {
    rule: source.rule,
    window,
    periods: { current: source.window, prior: spans.prior },
    scopes: source.fired.map(({ scope, name }) => ({
      scope,
      name,
      days:
        scope === TEAM_SCOPE
          ? sumDailySeries([...byProject.values()], window)
          : (byProject.get(scope) ?? []),
    })),
  };
}
