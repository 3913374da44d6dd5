import type { AlertRule } from "../../alerts/types.js";
import type { FetchOutcome } from "../../insights/types.js";
import type { Period } from "../../periods/types.js";
import { dailySeries, sumDailySeries } from "../../report/daily-series.js";
import type { DailyPoint, Report } from "../../report/types.js";
import { digestNews } from "../digest-news.js";
import { CHART_SLUG, type ChartMetric } from "./chart-points.js";
import type { ChartThreshold } from "./chart-spec.js";
import { chartThresholds } from "./chart-thresholds.js";
import { type Chart, type TrendChartOptions, trendCharts } from "./trend-chart.js";

// A digest's charts: the team's flaky rate and run pass rate, then the same two for each
// project that needs attention (the report's top movers, worst first). Every chart covers
// the same window, so they read side by side.

/** The rates a digest charts (an alert's fire may chart the shares too). */
type DigestChartMetric = Extract<ChartMetric, "flakyRate" | "runPassRate">;
const METRICS: readonly DigestChartMetric[] = ["flakyRate", "runPassRate"];

export interface DigestChartData {
  window: Period;
  /** The team's days of the window (summed over its available, not silent, projects). */
  team: readonly DailyPoint[];
  /** Each project's days of the window, by project id; a project missing here is not charted. */
  projects: ReadonlyMap<string, readonly DailyPoint[]>;
  thresholds: Readonly<Record<DigestChartMetric, readonly ChartThreshold[]>>;
}

/** How many projects are charted after the team. */
const ATTENTION_CHARTED = 5;

/**
 * The projects charted after the team: those the news names for a significant worsening or an
 * alert firing (silent and unfetched ones have no days to draw), each once, in the news' order.
 */
export function attentionProjects(report: Report): { projectId: string; name: string }[] {
  const seen = new Set<string>();
  return digestNews(report)
    .lines.flatMap((line) => {
      if (line.projectId === null || (line.kind !== "worse" && line.kind !== "alert")) return [];
      if (seen.has(line.projectId)) return [];
      seen.add(line.projectId);
      return [{ projectId: line.projectId, name: line.name }];
    })
    .slice(0, ATTENTION_CHARTED);
}

/**
 * Draws the digest's charts, team first, each subject's flaky rate before its run pass rate.
 * All are asked for at once, so a worker's next chart is never waiting on this thread; and one
 * metric's charts before the other's, since a chart laid out after one of the same metric (its
 * y axis's labels as wide) settles in one layout pass, not two (~7% of a digest's drawing).
 */
export async function renderDigestCharts(
  report: Report,
  data: DigestChartData,
  options: TrendChartOptions = {},
): Promise<Chart[]> {
  const subjects = [
    { id: "team", name: `${report.team.title} (team)`, days: data.team },
    ...attentionProjects(report).flatMap(({ projectId, name }) => {
      const days = data.projects.get(projectId);
      return days ? [{ id: projectId, name, days }] : [];
    }),
  ];
  const charts = subjects.flatMap((subject, index) =>
    METRICS.map((metric) => ({
      subject,
      metric,
      slug: `${index === 0 ? "team" : `project-${index}`}-${CHART_SLUG[metric]}`,
    })),
  );
  const drawer = trendCharts(options);
  // Asked for one metric after the other, each kept at its subject's place.
  const drawn: Promise<Chart>[] = [];
  for (const metric of METRICS) {
    charts.forEach((chart, at) => {
      if (chart.metric !== metric) return;
      drawn[at] = drawer.draw(
        {
          metric,
          subject: chart.subject.name,
          window: data.window,
          days: chart.subject.days,
          periods: report.periods,
          thresholds: data.thresholds[metric],
        },
        chart.slug,
      );
    });
  }
  return Promise.all(drawn);
}

/**
 * The chart data of a digest from each project's insights over the window: the projects the
 * report counts in the team total (available, not silent) summed for the team; a project
 * whose window could not be fetched is left out of both.
 */
export function digestChartData(
  report: Report,
  window: Period,
  fetched: ReadonlyMap<string, FetchOutcome>,
  alerts: readonly Pick<AlertRule, "metric" | "warnAt" | "criticalAt">[],
): DigestChartData {
  const projects = new Map<string, DailyPoint[]>();
  const counted: DailyPoint[][] = [];
  for (const project of report.projects) {
    const outcome = fetched.get(project.projectId);
    if (project.status !== "ok" || !outcome?.ok) continue;
    const days = dailySeries(outcome.insights.days, window);
    projects.set(project.projectId, days);
    if (!project.silent) counted.push(days);
  }
  return {
    window,
    team: sumDailySeries(counted, window),
    projects,
    thresholds: {
      flakyRate: chartThresholds("flakyRate", alerts),
      runPassRate: chartThresholds("runPassRate", alerts),
    },
  };
}
