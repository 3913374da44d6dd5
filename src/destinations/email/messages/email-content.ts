import { comparisonLabel, projectPriorNotes } from "../../../render/comparison-label.js";
import { type DigestNews, digestNews } from "../../../render/digest-news.js";
import { formatPeriod } from "../../../render/format.js";
import { silentTotalsNote } from "../../../render/silent-news.js";
import { type TableFigure, tableFigures } from "../../../render/table-figures.js";
import { worstFirst } from "../../../render/worst-first.js";
import type { AvailableProject, Report } from "../../../report/types.js";

// What a digest mail shows, chosen once so its HTML and plain-text bodies never disagree:
// the news first, then projects worst first (cut to a limit) and notes.

// Gmail clips a body over ~102 KB behind "view entire message"; 50 rows stay well under it
// even with long names, and the workbook has every project.
const DEFAULT_MAX_PROJECTS = 50;

export interface DigestContent {
  title: string;
  periodLine: string;
  /** Said first: silent projects, firing alerts, projects not fetched, significant changes. */
  news: DigestNews;
  projects: AvailableProject[];
  /** The figures each project shows: those that are news first, at most four (`tableFigures`). */
  columns: TableFigure[];
  hiddenProjects: number;
  notes: string[];
}

/** The content of a digest mail; `maxProjects` defaults to 50. */
export function digestContent(
  report: Report,
  options: { maxProjects?: number } = {},
): DigestContent {
  const news = digestNews(report);
  const available = worstFirst(
    report.projects.filter((p): p is AvailableProject => p.status === "ok"),
    news,
  );
  const max = Math.max(0, options.maxProjects ?? DEFAULT_MAX_PROJECTS);
  const notes = [
    silentTotalsNote(report),
    report.total.priorNote,
    report.missingDaysNote,
    ...projectPriorNotes(report).map((n) => `${n.names.join(", ")}: ${n.note}`),
    report.total.excluded.length > 0
      ? `The team total leaves out ${report.total.excluded.join(", ")} (unavailable).`
      : null,
  ].filter((n): n is string => n !== null);
  return {
    title: `${report.team.title} \u2014 ${report.digest} test insights`,
    periodLine: `${formatPeriod(report.periods.current)} \u00b7 ${report.team.timezone} \u00b7 ${comparisonLabel(report.periods)}`,
    news,
    projects: available.slice(0, max),
    columns: tableFigures(news),
    hiddenProjects: Math.max(0, available.length - max),
    notes,
  };
}
