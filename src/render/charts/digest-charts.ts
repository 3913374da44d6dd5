import type { AlertRule } from "../../alerts/types.js";
import type { FetchOutcome } from "../../insights/types.js";
import type { Period } from "../../periods/types.js";
import { dailySeries, sumDailySeries } from "../../report/daily-series.js";
import type { DailyPoint, Report } from "../../report/types.js";
import { digestNews } from "../digest-news.js";
import type { SubjectMetric } from "./chart-points.js";
import type { ChartThreshold } from "./chart-spec.js";
import { chartThresholds } from "./chart-thresholds.js";
import { type Chart, periodNamesOf, type TrendChartOptions, trendCharts } from "./trend-chart.js";

// A digest's charts: one image for the team, its flaky rate above its run pass rate, then one
// for each project that needs attention (the report's top movers, worst first). Every chart
// covers the same window, so they read side by side.

/** How a subject chart is named in its file name, after its subject: "team-rates". */
export const SUBJECT_CHART_SLUG = "rates";

export interface DigestChartData {
  window: Period;
  /** The team's days of the window (summed over its available, not silent, projects). */
  team: readonly DailyPoint[];
  /** Each project's days of the window, by project id; a project missing here is not charted. */
  projects: ReadonlyMap<string, readonly DailyPoint[]>;
  thresholds: Readonly<Record<SubjectMetric, readonly ChartThreshold[]>>;
}

/** How many projects are charted after the team. */
const ATTENTION_CHARTED = 5;

/**
 * The projects charted after the team: those the news names for a significant worsening or an
 * alert firing (silent and unfetched ones have no days to draw), each once, in the news' order.
 */
function attentionProjects(report: Report): { projectId: string; name: string }[] {
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
 * Draws the digest's charts, one image per subject with both its rates, the team's first.
 * All are asked for at once, so a worker's next chart is never waiting on this thread.
 */
export async function renderDigestCharts(
  report: Report,
  data: DigestChartData,
  options: TrendChartOptions = {},
): Promise<Chart[]> {
  const subjects = [
    // The team's title may carry brackets of its own ("Apps (Sydney)"): no "(team)" after it.
    { slug: "team", name: `${report.team.title} · all projects`, days: data.team },
    ...attentionProjects(report).flatMap(({ projectId, name }, index) => {
      const days = data.projects.get(projectId);
      return days ? [{ slug: `project-${index + 1}`, name, days }] : [];
    }),
  ];
  const drawer = trendCharts(options);
  const periodNames = periodNamesOf(report.periods);
  return Promise.all(
    subjects.map((subject) =>
      drawer.drawSubject(
        {
          subject: subject.name,
          window: data.window,
          days: subject.days,
          periods: report.periods,
          periodNames,
          thresholds: data.thresholds,
        },
        `${subject.slug}-${SUBJECT_CHART_SLUG}`,
      ),
    ),
  );
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
