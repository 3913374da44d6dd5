import type { SlackBlock, SlackMessage, SlackMetadata, SlackPost } from "../../../messages.js";
import { comparisonLabel, projectPriorNotes } from "../../../render/comparison-label.js";
import {
  type DigestNews,
  digestNews,
  type NewsLine,
  newsSentence,
  newsSummary,
} from "../../../render/digest-news.js";
import { formatPeriod, sparkline } from "../../../render/format.js";
import { HEADLINE_FIGURES } from "../../../render/headline-figures.js";
import { silentTotalsNote } from "../../../render/silent-news.js";
import { tableFigures } from "../../../render/table-figures.js";
import { truncateText } from "../../../render/truncate-text.js";
import { WORST_FIRST_LABEL, worstFirst } from "../../../render/worst-first.js";
import type {
  AvailableProject,
  ProjectReport,
  Report,
  UnavailableProject,
} from "../../../report/types.js";
import { escapeMrkdwn, plainName } from "./escape-mrkdwn.js";
import { deltaCue } from "./slack-delta-cue.js";
import { contextBlock } from "./slack-digest-sections.js";
import { MESSAGE_TEXT_BUDGET, SLACK_LIMITS, slackTextLength } from "./slack-limits.js";
import { dashboardLinks } from "./slack-links.js";
import { moreNewsSection, type NewsOptions, newsBlock } from "./slack-news.js";
import { fieldSections, projectField } from "./slack-project-field.js";
import { projectTable, TABLE_PROJECT_ROWS } from "./slack-project-table.js";
import { slicesReply } from "./slack-slices.js";
import { threadReplies } from "./slack-thread.js";

export interface SlackDigestOptions extends NewsOptions {
  /** The delivery key: names the outbox file and the ledger row; goes into the metadata. */
  key: string;
  /** Projects listed in the main message, worst first (default 10, at most 98); all are in the thread. */
  maxProjectsInMessage?: number;
  /** "table" (default): one table block; "fields": section fields, for clients without tables. */
  projectLayout?: "table" | "fields";
}

const DEFAULT_PROJECTS_IN_MESSAGE = 10;
const UNAVAILABLE_IN_MESSAGE = 5;
const TITLE_CHARS = 100;

/**
 * A digest as Slack Block Kit, for a QA lead reading on a phone: the news first (silent
 * projects, firing alerts, projects not fetched, significant changes), then the team's figures
 * and the worst projects in the channel message, every project in thread replies. Every Slack limit is respected by construction.
 */
export function renderSlackDigest(report: Report, options: SlackDigestOptions): SlackPost {
  // Worked out once: the message, its fallback text and its table all read the same news.
  const news = digestNews(report);
  const available = worstFirst(report.projects.filter(isAvailable), news);
  const unavailable = report.projects.filter(isUnavailable);
  const layout = options.projectLayout ?? "table";
  const wanted = options.maxProjectsInMessage ?? DEFAULT_PROJECTS_IN_MESSAGE;
  let shown = Math.max(0, Math.min(Math.floor(wanted), TABLE_PROJECT_ROWS));
  let main = mainMessage(report, news, available, shown, layout, options);
  // Long names and many alerts can crowd the message: list fewer projects until it fits.
  while (slackTextLength(main) > MESSAGE_TEXT_BUDGET && shown > 0) {
    shown = Math.floor(shown / 2);
    main = mainMessage(report, news, available, shown, layout, options);
  }
  // A team whose projects all fit in the message gets no thread repeating them.
  const allShown = shown >= available.length && unavailable.length <= UNAVAILABLE_IN_MESSAGE;
  const slices = slicesReply(titleOf(report), available);
  return {
    main,
    metadata: digestMetadata(report, options.key),
    thread: [
      ...(allShown
        ? []
        : threadReplies(titleOf(report), [...available, ...unavailable], report.dashboardUrl)),
      ...(slices ? [slices] : []),
    ],
  };
}

/** The metadata scripts and other bots read (README "What a digest looks like"). */
export function digestMetadata(report: Report, key: string): SlackMetadata {
  return {
    event_type: "insights_digest",
    event_payload: {
      key,
      team: report.team.name,
      digest: report.digest,
      period_start: report.periods.current.start,
      period_end: report.periods.current.end,
    },
  };
}

/** The notification text: team, digest and period, the news (or `No significant change`), then the two headline figures. */
export function digestFallbackText(report: Report, news = digestNews(report)): string {
  const sentence = (line: NewsLine) => escapeMrkdwn(truncateText(newsSentence(line), 200));
  return `${titleOf(report)}: ${newsSummary(news, sentence)}`;
}

function mainMessage(
  report: Report,
  news: DigestNews,
  available: readonly AvailableProject[],
  shown: number,
  layout: "table" | "fields",
  options: NewsOptions,
): SlackMessage {
  const listed = available.slice(0, shown);
  const hidden = available.length - listed.length;
  const blocks: (SlackBlock | null)[] = [
    // The verdict first: what a reader on a phone must know before any figure.
    newsBlock(news, options),
    headerBlock(report),
    contextBlock([
      `${formatPeriod(report.periods.current)} \u00b7 ${escapeMrkdwn(report.team.timezone)} \u00b7 ${comparisonLabel(report.periods)}`,
    ]),
    headlineBlock(report),
    contextBlock(teamNotes(report)),
    { type: "divider" },
    ...projectBlocks(listed, report, news, layout),
    contextBlock(
      hidden > 0 ? [`+${hidden} more project${hidden === 1 ? "" : "s"} in the thread`] : [],
    ),
    moreNewsSection(news, options),
    dashboardLinks(report.dashboardUrl, listed),
  ];
  return {
    text: digestFallbackText(report, news),
    blocks: blocks.filter((b): b is SlackBlock => b !== null),
  };
}

function headerBlock(report: Report): SlackBlock {
  // plain_text is shown as typed: no mrkdwn escaping here, only no link.
  const title = plainName(
    `${report.team.title} \u00b7 ${report.digest} \u00b7 ${formatPeriod(report.periods.current)}`,
  );
  return {
    type: "header",
    text: { type: "plain_text", text: truncateText(title, SLACK_LIMITS.headerChars) },
  };
}

function headlineBlock(report: Report): SlackBlock {
  const { current, deltas } = report.total;
  const fields = HEADLINE_FIGURES.map(({ label, figure, value }) => {
    const cue = deltaCue(figure, deltas[figure]);
    return { type: "mrkdwn", text: `*${label}*\n${value(current)}${cue === "" ? "" : `  ${cue}`}` };
  });
  return { type: "section", fields: fields.slice(0, SLACK_LIMITS.fields) };
}

function teamNotes(report: Report): string[] {
  const { daily, priorNote, excluded } = report.total;
  const notes: string[] = [];
  if (daily.length > 1) {
    // Plain text: Slack paints inline code red, and this line is no alarm.
    notes.push(`Team flaky rate by day ${sparkline(daily.map((d) => d.figures.flakyRate))}`);
  }
  const silent = silentTotalsNote(report);
  if (silent !== null) notes.push(escapeMrkdwn(truncateText(silent, 500)));
  if (priorNote !== null) notes.push(`\u2139\uFE0F ${escapeMrkdwn(priorNote)}`);
  if (report.missingDaysNote !== null) {
    notes.push(`\u2139\uFE0F ${escapeMrkdwn(truncateText(report.missingDaysNote, 1000))}`);
  }
  for (const { note, names } of projectPriorNotes(report)) {
    const who = truncateText(names.join(", "), 300);
    notes.push(`\u2139\uFE0F ${escapeMrkdwn(who)}: ${escapeMrkdwn(note)}`);
  }
  if (excluded.length > 0) {
    const n = excluded.length;
    notes.push(`Totals leave out ${n} unavailable project${n === 1 ? "" : "s"}`);
  }
  return notes;
}

function projectBlocks(
  listed: readonly AvailableProject[],
  report: Report,
  news: DigestNews,
  layout: "table" | "fields",
): SlackBlock[] {
  const { dashboardUrl } = report;
  if (listed.length === 0) return [];
  const title: SlackBlock = {
    type: "section",
    text: { type: "mrkdwn", text: `*Projects* \u00b7 ${WORST_FIRST_LABEL}` },
  };
  if (layout === "table") {
    return [title, projectTable(listed, report.total, tableFigures(news))];
  }
  return [title, ...fieldSections(listed.map((p) => projectField(p, dashboardUrl)))];
}

// Names are cut before escaping so an entity is never split.
function titleOf(report: Report): string {
  const { team, digest, periods } = report;
  const title = escapeMrkdwn(truncateText(team.title, TITLE_CHARS));
  return `${title} \u00b7 ${escapeMrkdwn(truncateText(digest, TITLE_CHARS))} \u00b7 ${formatPeriod(periods.current)}`;
}

function isAvailable(project: ProjectReport): project is AvailableProject {
  return project.status === "ok";
}

function isUnavailable(project: ProjectReport): project is UnavailableProject {
  return project.status === "unavailable";
}
