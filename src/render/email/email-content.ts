import type {
  AvailableProject,
  FiringAlert,
  Mover,
  Report,
  UnavailableProject,
} from "../../report/types.js";
import { comparisonLabel, projectPriorNotes } from "../comparison-label.js";
import { formatPeriod, formatPp, formatRate } from "../format.js";
import { silentNews, silentSentence, silentTotalsNote } from "../silent-news.js";
import { worstFirst } from "../worst-first.js";

// What a digest mail shows, chosen once so its HTML and plain-text bodies never disagree:
// projects worst first (cut to a limit), notes, firing alerts, movers, unavailable projects.

// Gmail clips a body over ~102 KB behind "view entire message"; 50 rows stay well under it
// even with long names, and the workbook has every project.
const DEFAULT_MAX_PROJECTS = 50;

export interface DigestContent {
  title: string;
  periodLine: string;
  /** "Mobile smoke had no runs on Nov 22 (3 the day before)": said first. */
  silent: string[];
  projects: AvailableProject[];
  hiddenProjects: number;
  unavailable: UnavailableProject[];
  notes: string[];
  alerts: { alert: FiringAlert; project: string }[];
  movers: Mover[];
}

/** The content of a digest mail; `maxProjects` defaults to 50. */
export function digestContent(
  report: Report,
  options: { maxProjects?: number } = {},
): DigestContent {
  const available = worstFirst(
    report.projects.filter((p): p is AvailableProject => p.status === "ok"),
  );
  const max = Math.max(0, options.maxProjects ?? DEFAULT_MAX_PROJECTS);
  const names = new Map(report.projects.map((p) => [p.projectId, p.name]));
  const notes = [
    silentTotalsNote(report),
    report.total.priorNote,
    ...projectPriorNotes(report).map((n) => `${n.names.join(", ")}: ${n.note}`),
    report.total.excluded.length > 0
      ? `The team total leaves out ${report.total.excluded.join(", ")} (unavailable).`
      : null,
  ].filter((n): n is string => n !== null);
  return {
    title: `${report.team.title} \u2014 ${report.digest} test insights`,
    periodLine: `${formatPeriod(report.periods.current)} \u00b7 ${report.team.timezone} \u00b7 ${comparisonLabel(report.periods)}`,
    silent: silentNews(report).map(silentSentence),
    projects: available.slice(0, max),
    hiddenProjects: Math.max(0, available.length - max),
    unavailable: report.projects.filter((p): p is UnavailableProject => p.status === "unavailable"),
    notes,
    alerts: report.alerts.map((alert) => ({
      alert,
      project:
        alert.projectId === null
          ? report.team.title
          : (names.get(alert.projectId) ?? alert.projectId),
    })),
    movers: report.topMovers,
  };
}

/** "Web E2E: flaky rate 2.0% → 4.8% (+2.8 pp)". */
export function moverLine(m: Mover): string {
  const label = m.figure === "flakyRate" ? "flaky rate" : "run pass rate";
  const change = formatPp(m.pp);
  return `${m.name}: ${label} ${formatRate(m.prior)} \u2192 ${formatRate(m.current)} (${change})`;
}

/** The project's dashboard link when the template names a project; null otherwise. */
export function projectUrl(template: string | null, projectId: string): string | null {
  if (template === null || !template.includes("{project_id}")) return null;
  return template.replaceAll("{project_id}", encodeURIComponent(projectId));
}
