import { moreWords, NEWS_TITLE, NO_NEWS, newsSentence } from "../../../render/digest-news.js";
import { HEADLINE_FIGURES } from "../../../render/headline-figures.js";
import { nameWithId } from "../../../render/project-name.js";
import type { TableFigure } from "../../../render/table-figures.js";
import { WORST_FIRST_LABEL } from "../../../render/worst-first.js";
import type { AvailableProject, Report } from "../../../report/types.js";
import type { DigestContent } from "./email-content.js";

const MARK = { bad: "!", good: "\u2713", neutral: "\u00b7" } as const;

import { emailDeltaText } from "./email-html.js";

/**
 * The plain-text alternative of a digest mail: the same content as the HTML body, for clients
 * that show text only and for filters and scripts that read mail.
 */
export function digestText(
  report: Report,
  content: DigestContent,
  key: string,
  attached: string | null = null,
  /** The Trends section's lines (each chart in words); none without charts. */
  charts: readonly string[] = [],
): string {
  const { current, prior, deltas } = report.total;
  const labelWidth = Math.max(...HEADLINE_FIGURES.map((h) => h.label.length));
  const { news } = content;
  // The verdict is the first line, as in the HTML body and the preheader.
  const lines: string[] =
    news.lines.length === 0
      ? [`${NO_NEWS}: ${news.figures}`]
      : news.shown.map((line) => `${MARK[line.tone]} ${newsSentence(line)}`);
  if (news.more > 0) lines.push(`  ${moreWords(news)} under ${NEWS_TITLE} below`);
  lines.push("", content.title, content.periodLine, "");
  lines.push("Team");
  for (const h of HEADLINE_FIGURES) {
    const change = emailDeltaText(h.figure, deltas[h.figure]);
    const before = prior ? `  (prior ${h.value(prior)})` : "";
    lines.push(
      `  ${h.label.padEnd(labelWidth)}  ${h.value(current).padStart(9)}  ${change}${before}`,
    );
  }
  for (const note of content.notes) lines.push(`  Note: ${note}`);
  lines.push(...charts);

  if (news.more > 0) {
    lines.push("", `${NEWS_TITLE} (continued)`);
    for (const line of news.lines.slice(news.shown.length)) {
      lines.push(`  ${MARK[line.tone]} ${newsSentence(line)}`);
    }
  }

  lines.push("", `Projects (${WORST_FIRST_LABEL})`);
  for (const project of content.projects) lines.push(...projectLines(project, content.columns));
  if (content.hiddenProjects > 0) {
    lines.push(
      `  ${content.hiddenProjects} more projects are not listed here; the workbook export lists every project.`,
    );
  }
  if (attached !== null) lines.push("", attached);
  lines.push(
    "",
    "\u2248 marks a change that is not news: not significant at 95% (z-test for rates, Poisson for counts), or under min_change_pp for rates and 10% for counts and durations. Only news is coloured.",
    `Sent by insights-reporter \u00b7 ${key}`,
  );
  return `${lines.join("\n")}\n`;
}

function projectLines(p: AvailableProject, columns: readonly TableFigure[]): string[] {
  const with_ = (value: string, change: string) => (change ? `${value} (${change})` : value);
  const figures = columns.map(
    (c) =>
      `${c.label.toLowerCase()} ${with_(c.value(p.current), emailDeltaText(c.figure, p.deltas[c.figure]))}`,
  );
  return [`  ${nameWithId(p.name, p.projectId)}`, `    ${figures.join(" \u00b7 ")}`];
}
