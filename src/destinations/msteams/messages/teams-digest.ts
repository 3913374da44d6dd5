import type { CardElement, TeamsMessage } from "../../../messages.js";
import { comparisonLabel, projectPriorNotes } from "../../../render/comparison-label.js";
import { type DigestNews, digestNews, newsSummary } from "../../../render/digest-news.js";
import { formatPeriod, plural, sparkline } from "../../../render/format.js";
import { linksPerProject, projectDashboardUrl } from "../../../render/project-links.js";
import { silentTotalsNote } from "../../../render/silent-news.js";
import { tableFigures } from "../../../render/table-figures.js";
import { truncateText } from "../../../render/truncate-text.js";
import { WORST_FIRST_LABEL, worstFirst } from "../../../render/worst-first.js";
import type { AvailableProject, ProjectReport, Report } from "../../../report/types.js";
import {
  messageBytes,
  openUrl,
  type Run,
  richText,
  TEAMS_CARD_BYTES,
  teamsMessage,
} from "./card-parts.js";
import { projectRows, teamFigures } from "./teams-figures.js";
import { moreNewsBlocks, newsBlocks } from "./teams-news.js";

export interface TeamsDigestOptions {
  /** Projects listed in the card, worst first (default 10); fewer when the card would pass 28 KB. */
  maxProjects?: number;
  /** Where every project can be read when the card lists fewer: "in the workbook mailed to qa@x". */
  workbookWhere?: string;
}

const DEFAULT_PROJECTS = 10;
const TITLE_CHARS = 100;
const LINK_LABEL_CHARS = 40;

/**
 * A digest as a Teams Adaptive Card, in the order of the Slack digest: the news first, then the
 * team's figures, the projects that need attention most, and links to the dashboards. Projects
 * that do not fit Teams' 28 KB say how many more there are and where to read them.
 */
export function renderTeamsDigest(report: Report, options: TeamsDigestOptions = {}): TeamsMessage {
  // Worked out once: every card the search below renders reads the same news.
  const news = digestNews(report);
  const available = worstFirst(report.projects.filter(isAvailable), news);
  const wanted = Math.floor(options.maxProjects ?? DEFAULT_PROJECTS);
  const render = (shown: number) => card(report, news, available, shown, options);
  // Long names and many alerts can crowd the card: the most projects that still fit 28 KB.
  let fits = 0;
  let tooMany = Math.max(0, Math.min(wanted, available.length)) + 1;
  while (tooMany - fits > 1) {
    const middle = Math.floor((fits + tooMany) / 2);
    if (messageBytes(render(middle)) <= TEAMS_CARD_BYTES) fits = middle;
    else tooMany = middle;
  }
  return render(fits);
}

/** The card's notification text: team, digest and period, then the news and the headline figures. */
function teamsFallbackText(report: Report, news: DigestNews): string {
  return `${titleOf(report)}: ${newsSummary(news)}`;
}

function card(
  report: Report,
  news: DigestNews,
  available: readonly AvailableProject[],
  shown: number,
  options: TeamsDigestOptions,
): TeamsMessage {
  const listed = available.slice(0, shown);
  const hidden = available.length - listed.length;
  const body: CardElement[] = [
    // The verdict first: what a reader on a phone must know before any figure.
    ...newsBlocks(news),
    richText([{ text: titleOf(report), bold: true, size: "large" }], { separator: true }),
    richText(
      [
        {
          text: `${formatPeriod(report.periods.current)} \u00b7 ${report.team.timezone} \u00b7 ${comparisonLabel(report.periods)}`,
          subtle: true,
          size: "small",
        },
      ],
      { spacing: "none" },
    ),
    teamFigures(report.total),
    ...teamNotes(report).map((note) =>
      richText([{ text: note, subtle: true, size: "small" }], { spacing: "small" }),
    ),
    ...(listed.length > 0
      ? [
          richText(
            [
              { text: "Projects", bold: true },
              { text: ` \u00b7 ${WORST_FIRST_LABEL}`, subtle: true },
            ],
            { separator: true },
          ),
          projectRows(listed, report.total, tableFigures(news)),
        ]
      : []),
    ...(hidden > 0 ? [richText([moreProjectsWords(hidden, options)], { spacing: "small" })] : []),
    ...moreNewsBlocks(news),
    ...dashboardLinks(report.dashboardUrl, listed),
  ];
  const actions =
    report.dashboardUrl !== null && !linksPerProject(report.dashboardUrl)
      ? [openUrl("Open dashboard", report.dashboardUrl)]
      : [];
  return teamsMessage(body, teamsFallbackText(report, news), actions);
}

/** "12 more projects: every project is in the workbook mailed to qa@x". */
function moreProjectsWords(hidden: number, options: TeamsDigestOptions): Run {
  const where = options.workbookWhere ?? "in the workbook (insights-reporter export)";
  return {
    text: `${plural(hidden, "more project")} not listed here: every project is ${where}`,
    subtle: true,
  };
}

function teamNotes(report: Report): string[] {
  const { daily, priorNote, excluded } = report.total;
  const notes: string[] = [];
  if (daily.length > 1)
    notes.push(`Team flaky rate by day ${sparkline(daily.map((d) => d.figures.flakyRate))}`);
  const silent = silentTotalsNote(report);
  if (silent !== null) notes.push(truncateText(silent, 500));
  if (priorNote !== null) notes.push(`\u2139\uFE0F ${priorNote}`);
  for (const { note, names } of projectPriorNotes(report)) {
    notes.push(`\u2139\uFE0F ${truncateText(names.join(", "), 300)}: ${note}`);
  }
  if (excluded.length > 0)
    notes.push(`Totals leave out ${plural(excluded.length, "unavailable project")}`);
  return notes;
}

/** One link per listed project when the template names a project; the team's is a button. */
function dashboardLinks(template: string | null, listed: readonly ProjectReport[]): CardElement[] {
  if (template === null || !linksPerProject(template) || listed.length === 0) return [];
  const runs: (Run | string)[] = ["Dashboards: "];
  listed.forEach((p, i) => {
    if (i > 0) runs.push(" \u00b7 ");
    runs.push({
      text: truncateText(p.name || p.projectId, LINK_LABEL_CHARS),
      colour: "accent",
      url: projectDashboardUrl(template, p.projectId),
    });
  });
  return [richText(runs, { spacing: "medium" })];
}

function titleOf(report: Report): string {
  const { team, digest, periods } = report;
  return `${truncateText(team.title, TITLE_CHARS)} \u00b7 ${truncateText(digest, TITLE_CHARS)} \u00b7 ${formatPeriod(periods.current)}`;
}

function isAvailable(project: ProjectReport): project is AvailableProject {
  return project.status === "ok";
}
