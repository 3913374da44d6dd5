import { collectSpan } from "../../insights/collect-insights.js";
import type { FetchOutcome } from "../../insights/types.js";
import { chartWindow } from "../../periods/chart-window.js";
import type { PeriodPair } from "../../periods/types.js";
import type { Chart } from "../../render/charts/trend-chart.js";
import type { Report } from "../../report/types.js";
import type { DigestJob } from "./digest-slot.js";
import type { DigestDeps } from "./digest-types.js";

// The digest's chart stage: the chart window's days, asked for early, then drawn by the painter
// the run is handed. Charts that cannot be drawn leave the digest without charts, never without
// its text.

/**
 * Asks for the chart window's days before the period's, not once the report is built: the
 * window holds the period and the prior one, so the report cuts both from its answers (one
 * request a project, not two; see `fetchPeriodPair`), and in a cycle of many digests each is
 * drawn as soon as its team's answers are in, not after every team's report. `digestCharts` then
 * finds the same requests in the run's cache; what fails here fails there again, and is handled
 * there, while the report asks for its periods on their own.
 */
export function fetchChartDaysAhead(
  job: DigestJob,
  periods: PeriodPair,
  windowDays: number,
  deps: Pick<DigestDeps, "api" | "cache">,
): void {
  collectSpan(deps.api, job.team, chartWindow(periods, windowDays), deps.cache).catch(() => {});
}

/**
 * The charts, or none when they cannot be drawn or their days fetched: the digest still goes
 * out, its text complete without them, and the log says why they are missing.
 */
export async function chartsOrNone(
  job: DigestJob,
  key: string,
  report: Report,
  charts: { windowDays: number },
  deps: DigestDeps,
): Promise<Chart[]> {
  try {
    return await digestCharts(job, report, charts.windowDays, deps);
  } catch (error) {
    deps.logger.warn({ slot: key, err: String(error) }, "charts left out of the digest");
    return [];
  }
}

/**
 * The digest's trend charts: each project's days over the chart window, through the run's
 * request cache (and the day store behind `api`, when there is one), drawn by the chart
 * module, loaded on the first digest that has charts.
 */
export async function digestCharts(
  job: Pick<DigestJob, "team">,
  report: Report,
  windowDays: number,
  deps: Pick<DigestDeps, "api" | "cache" | "chartPainter">,
): Promise<Chart[]> {
  const asked = chartWindow(report.periods, windowDays);
  let window = asked;
  let fetched = await collectSpan(deps.api, job.team, window, deps.cache);
  const served = servedStart(fetched);
  if (served !== null && served > window.start && served <= report.periods.prior.start) {
    // The window reaches past the API's 3 months (a monthly digest's 16 weeks): draw what it
    // still serves rather than an empty chart.
    window = { start: served, end: window.end };
    fetched = await collectSpan(deps.api, job.team, window, deps.cache);
  }
  if (![...fetched.values()].some((outcome) => outcome.ok)) {
    const [first] = [...fetched.values()];
    throw new Error(
      `no project's days of ${window.start}..${window.end} could be fetched${first && !first.ok ? `: ${first.error.message}` : ""}`,
    );
  }
  const { digestChartData, renderDigestCharts } = await import(
    "../../render/charts/digest-charts.js"
  );
  return renderDigestCharts(report, digestChartData(report, window, fetched, job.team.alerts), {
    painter: deps.chartPainter,
  });
}

/** The latest first day the API named when it refused a start before its reach, or null. */
function servedStart(fetched: ReadonlyMap<string, FetchOutcome>): string | null {
  const named = [...fetched.values()].flatMap((outcome) =>
    !outcome.ok && outcome.error.earliestDate ? [outcome.error.earliestDate] : [],
  );
  return named.length === 0 ? null : (named.sort().at(-1) ?? null);
}
