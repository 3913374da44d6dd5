import {
  type DigestNews,
  digestNews,
  moreWords,
  NEWS_TITLE,
  type NewsLine,
  NO_NEWS,
  newsSummary,
  newsVerdict,
} from "../../../render/digest-news.js";
import { formatPeriod } from "../../../render/format.js";
import { HEADLINE_FIGURES } from "../../../render/headline-figures.js";
import { projectUrl } from "../../../render/project-links.js";
import { idAddsToName } from "../../../render/project-name.js";
import type { TableFigure } from "../../../render/table-figures.js";
import { WORST_FIRST_LABEL } from "../../../render/worst-first.js";
import type { AvailableProject, Report } from "../../../report/types.js";
import { chartsHtml, chartsText, type EmailChart } from "./email-charts.js";
import { type DigestContent, digestContent } from "./email-content.js";
import {
  COLOURS,
  deltaHtml,
  escapeHtml,
  FONT,
  headingHtml,
  linkHtml,
  paragraphHtml,
  tableHtml,
} from "./email-html.js";
import { digestText } from "./email-text.js";

// A digest as an email: a subject that names team, digest and period (distinct per period, so
// mail clients do not fold every digest into one thread), an HTML body for Gmail and Outlook
// (inline styles, tables, no scripts, no external CSS or images) and a plain-text alternative.

export interface DigestEmailOptions {
  /** The delivery key, shown in the footer so a mail can be traced to its ledger row. */
  key: string;
  /** Projects listed (worst first); the rest are counted and left to the workbook. Default 50. */
  maxProjects?: number;
  /** The attached workbook's file name, so the mail says it is there and what it holds. */
  workbook?: string | null;
  /**
   * Who owns each project, by project id; the email addresses among them are put in `Cc` when
   * the news names their project for something bad (never for noise or an improvement).
   */
  owners?: Readonly<Record<string, readonly string[]>>;
  /** Trend charts the mail carries as `cid:` parts (see `emailCharts`), shown under the team's figures. */
  charts?: readonly EmailChart[];
}

/** Wraps what says the workbook is attached, so a size cap that drops it can drop this too. */
export const ATTACHED_MARK = { start: "<!--attached-->", end: "<!--/attached-->" };

export interface DigestEmail {
  subject: string;
  html: string;
  text: string;
  /** Owners' addresses of the projects the news names for something bad; each once. */
  cc: string[];
}

/** Subject, HTML and plain text of a digest mail. */
export function renderDigestEmail(report: Report, options: DigestEmailOptions): DigestEmail {
  const content = digestContent(report, options);
  const charts = options.charts ?? [];
  return {
    subject: digestSubject(report, content.news),
    html: digestHtml(report, content, options.key, options.workbook ?? null, charts),
    text: digestText(
      report,
      content,
      options.key,
      workbookLine(options.workbook ?? null),
      chartsText(charts),
    ),
    cc: ownersCc(content.news, options.owners ?? {}),
  };
}

/** The owners to copy: of every project with bad news, email addresses only, each once. */
function ownersCc(news: DigestNews, owners: Readonly<Record<string, readonly string[]>>): string[] {
  const cc = new Set<string>();
  for (const line of news.lines) {
    if (line.tone !== "bad" || line.projectId === null) continue;
    for (const owner of owners[line.projectId] ?? []) if (owner.includes("@")) cc.add(owner);
  }
  return [...cc];
}

/**
 * "[Checkout squad] daily test insights · Nov 15, 2026 · Payments UI failed tests 10 → 80": the
 * subject ends with the verdict, the first line of news (or "no significant change").
 */
export function digestSubject(report: Report, news: DigestNews = digestNews(report)): string {
  const subject = `[${report.team.title}] ${report.digest} test insights \u00b7 ${formatPeriod(report.periods.current)} \u00b7 ${newsVerdict(news)}`;
  return subject.replace(/[\r\n\t]+/g, " ");
}

/** "Attached: insights-….xlsx — Summary (…), Daily (…), About (…)."; null without a workbook. */
function workbookLine(file: string | null): string | null {
  if (file === null) return null;
  return `Attached: ${file} \u2014 Summary (each project's figures, prior and change), Daily (a row per project per day) and About (how the figures are computed).`;
}

function digestHtml(
  report: Report,
  content: DigestContent,
  key: string,
  workbook: string | null,
  charts: readonly EmailChart[],
): string {
  const attached = workbookLine(workbook);
  const rows = [
    // The verdict first, above the title: what a reader on a phone must see before any figure.
    newsHtml(content.news, content.news.shown, "padding-top:20px;"),
    `<tr><td style="padding:12px 24px 4px;${FONT}font-size:18px;font-weight:bold;color:${COLOURS.text};">${escapeHtml(content.title)}</td></tr>`,
    paragraphHtml(escapeHtml(content.periodLine), `color:${COLOURS.neutral};`),
    headingHtml("Team"),
    headlineTable(report),
    ...content.notes.map((note) =>
      paragraphHtml(escapeHtml(note), `color:${COLOURS.neutral};font-size:12px;`),
    ),
    ...chartsHtml(charts),
    ...moreNewsHtml(content.news),
    headingHtml(`Projects (${WORST_FIRST_LABEL})`),
    ...content.projects.map((p, i) => projectBlock(p, content.columns, report.dashboardUrl, i)),
    ...(content.hiddenProjects > 0
      ? [
          paragraphHtml(
            escapeHtml(
              `${content.hiddenProjects} more projects are not listed here; the workbook export lists every project.`,
            ),
          ),
        ]
      : []),
    ...(attached
      ? [
          `${ATTACHED_MARK.start}${paragraphHtml(escapeHtml(attached), "padding-top:12px;")}${ATTACHED_MARK.end}`,
        ]
      : []),
    paragraphHtml(
      escapeHtml(
        "\u2248 marks a change that is not news: not significant at 95% (z-test for rates, Poisson for counts), or under min_change_pp for rates and 10% for counts and durations. Only news is coloured red or green. Rates of the team come from summed counts. pp = percentage points.",
      ),
      `color:${COLOURS.neutral};font-size:11px;padding-top:16px;`,
    ),
    paragraphHtml(
      escapeHtml(`Sent by insights-reporter \u00b7 ${key}`),
      `color:${COLOURS.neutral};font-size:11px;padding-bottom:20px;`,
    ),
  ];
  return [
    "<!DOCTYPE html>",
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(digestSubject(report, content.news))}</title></head>`,
    `<body style="margin:0;padding:0;background:${COLOURS.muted};">`,
    // Inbox preview text: hidden in the body, shown by Gmail and Outlook beside the subject.
    `<div style="display:none;max-height:0;overflow:hidden;">${escapeHtml(preheader(content))}</div>`,
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:${COLOURS.muted};"><tr><td align="center" style="padding:16px 8px;">`,
    // Fluid up to 680 px: on a 390 px phone the card is the screen's width, nothing cut off.
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="width:100%;max-width:680px;background:#ffffff;border:1px solid ${COLOURS.border};">`,
    ...rows,
    "</table></td></tr></table></body></html>",
  ].join("\n");
}

/** The inbox preview: the news in one line, then the two headline figures. */
function preheader(content: DigestContent): string {
  return newsSummary(content.news);
}

function headlineTable(report: Report): string {
  const { current, prior, deltas } = report.total;
  return tableHtml(
    [
      { text: "Figure" },
      { text: "This period", align: "right" },
      { text: "Change (prior)", align: "right" },
    ],
    // Three columns, the prior under its change: a 390 px phone shows the whole row.
    HEADLINE_FIGURES.map((h) => [
      escapeHtml(h.label),
      `<b>${escapeHtml(h.value(current))}</b>`,
      `${deltaHtml(h.figure, deltas[h.figure])}<br><span style="font-size:11px;color:${COLOURS.neutral};">${escapeHtml(prior ? h.value(prior) : "\u2014")}</span>`,
    ]),
  );
}

/**
 * One project as a name line over a row of its figures (those that are news in this digest
 * first, at most four) that wrap: side by side on a desktop, two a line on a phone.
 * Inline-block cells stack by themselves, with no media query (which Outlook and some Gmail apps
 * ignore) and only inline styles.
 */
function projectBlock(
  p: AvailableProject,
  columns: readonly TableFigure[],
  dashboardUrl: string | null,
  index: number,
): string {
  const figure = (label: string, value: string, delta: string) =>
    `<div style="display:inline-block;vertical-align:top;width:118px;padding:2px 0 4px;${FONT}font-size:13px;"><span style="font-size:11px;color:${COLOURS.neutral};">${label}</span><br><b>${escapeHtml(value)}</b>${delta ? ` <small>${delta}</small>` : ""}</div>`;
  const figures = columns
    .map((c) =>
      figure(escapeHtml(c.label), c.value(p.current), deltaHtml(c.figure, p.deltas[c.figure])),
    )
    .join("");
  const stripe = index % 2 === 1 ? `background:${COLOURS.muted};` : "";
  const id = idAddsToName(p.name, p.projectId)
    ? ` <span style="font-size:11px;color:${COLOURS.neutral};">${escapeHtml(p.projectId)}</span>`
    : "";
  const name = `<b>${linkHtml(p.name || p.projectId, projectUrl(dashboardUrl, p.projectId))}</b>${id}`;
  return `<tr><td style="padding:6px 24px;${FONT}font-size:13px;color:${COLOURS.text};${stripe}">${name}<br>${figures}</td></tr>`;
}

/** News lines, bad in red and good in green; `No significant change` and the figures when none. */
function newsHtml(news: DigestNews, lines: readonly NewsLine[], style = ""): string {
  if (news.lines.length === 0) {
    return paragraphHtml(
      `<b>${NO_NEWS}</b> \u00b7 ${escapeHtml(news.figures)}`,
      `font-size:15px;${style}`,
    );
  }
  const items = lines.map((line) => {
    const colour = COLOURS[line.tone];
    return `<span style="color:${colour};">${MARK[line.kind]}</span> <b>${escapeHtml(line.name)}</b>${escapeHtml(line.what)}`;
  });
  if (lines === news.shown && news.more > 0) {
    items.push(escapeHtml(`\u2026 ${moreWords(news)} under ${NEWS_TITLE} below`));
  }
  return paragraphHtml(items.join("<br>"), `font-size:15px;line-height:1.5;${style}`);
}

function moreNewsHtml(news: DigestNews): string[] {
  if (news.more === 0) return [];
  return [
    headingHtml(`${NEWS_TITLE} (continued)`),
    newsHtml(news, news.lines.slice(news.shown.length)),
  ];
}

const MARK: Record<NewsLine["kind"], string> = {
  silent: "&#9888;&#65039;",
  alert: "&#9679;",
  unavailable: "&#9888;&#65039;",
  worse: "&#9679;",
  better: "&#9679;",
  changed: "&#8226;",
};
