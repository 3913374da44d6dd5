import { periodDays } from "../../periods/calendar-date.js";
import type { Period } from "../../periods/types.js";
import type { Report } from "../../report/types.js";
import { comparisonLabel, projectPriorNotes } from "../comparison-label.js";
import {
  type DigestNews,
  digestNews,
  moreWords,
  NEWS_TITLE,
  type NewsLine,
  NO_NEWS,
  newsSentence,
} from "../digest-news.js";
import { formatPeriod } from "../format.js";
import { HEADLINE_FIGURES } from "../headline-figures.js";
import { printableText } from "../printable-text.js";
import { silentTotalsNote } from "../silent-news.js";
import { worstFirst } from "../worst-first.js";
import { INDENT, projectLines, type TerminalLayout, terminalDelta } from "./terminal-projects.js";
import { clip, pad, paint, wrap } from "./terminal-style.js";

export interface TerminalOptions {
  /** ANSI colour; the CLI decides from isTTY and NO_COLOR. */
  color: boolean;
  /**
   * Columns to fit: the command's `terminalWidth()` (a TTY's own, else 80). Required, so no
   * caller lays the report out for a width its terminal does not have.
   */
  width: number;
}

const HANGING = INDENT.repeat(2);

/**
 * A digest as terminal text for `preview`: the period and what it is compared with, the team
 * headline with deltas, one line per project with a sparkline, movers, alerts, unavailable
 * projects. Text from the API or config is stripped of control characters.
 */
export function renderTerminalReport(report: Report, options: TerminalOptions): string {
  const layout: TerminalLayout = { color: options.color, width: options.width };
  const news = digestNews(report);
  const available = worstFirst(
    report.projects.filter((p) => p.status === "ok"),
    news,
  );
  const sections = [
    // The first line is the verdict, as in every other renderer.
    newsLines(news, news.shown, layout),
    heading(report, layout),
    headline(report, layout),
    projectLines(available, layout, report.total, news),
    moreNewsLines(news, layout),
  ];
  const text = sections.filter((lines) => lines.length > 0).map((lines) => lines.join("\n"));
  return `${text.join("\n\n")}\n`;
}

function heading(report: Report, layout: TerminalLayout): string[] {
  const { team, digest, periods } = report;
  const title = `${printableText(team.title)} \u00b7 ${printableText(digest)} \u00b7 ${formatPeriod(periods.current)}`;
  const period = [
    formatPeriod(periods.current),
    daysLabel(periods.current),
    printableText(team.timezone),
  ];
  return [
    paint(clip(title, layout.width), "title", layout.color),
    `Period    ${period.filter(Boolean).join(" \u00b7 ")}`,
    `Compared  ${comparisonLabel(periods)}`,
  ];
}

/** News lines (or `No significant change` and the two figures), bad in red, good in green. */
function newsLines(news: DigestNews, lines: readonly NewsLine[], layout: TerminalLayout): string[] {
  if (news.lines.length === 0) return wrap(`${NO_NEWS}: ${news.figures}`, layout.width, "", INDENT);
  const out = lines.flatMap((line) =>
    wrap(`${MARK[line.kind]} ${printableText(newsSentence(line))}`, layout.width, "", INDENT).map(
      (l) => paint(l, line.tone, layout.color),
    ),
  );
  if (lines === news.shown && news.more > 0) out.push(`  ${moreWords(news)} under ${NEWS_TITLE}`);
  return out;
}

function moreNewsLines(news: DigestNews, layout: TerminalLayout): string[] {
  if (news.more === 0) return [];
  const rest = news.lines.slice(news.shown.length);
  return [
    paint(`${NEWS_TITLE} (continued)`, "title", layout.color),
    ...newsLines(news, rest, layout),
  ];
}

const MARK: Record<NewsLine["kind"], string> = {
  silent: "!",
  alert: "!",
  unavailable: "!",
  worse: "!",
  better: "\u2713",
  changed: "\u00b7",
};

function daysLabel(period: Period): string {
  const days = periodDays(period);
  return days === 1 ? "" : `${days} days`;
}

function headline(report: Report, layout: TerminalLayout): string[] {
  const { current, deltas, priorNote, excluded } = report.total;
  const lines = [paint("Team", "title", layout.color)];
  for (const { label, figure, value } of HEADLINE_FIGURES) {
    const delta = terminalDelta(figure, deltas[figure], layout, true);
    const line = `${INDENT}${pad(label, 20)}${pad(value(current), 10, "right")}  ${delta}`;
    lines.push(line.trimEnd());
  }
  const notes: string[] = [];
  const silent = silentTotalsNote(report);
  if (silent !== null) notes.push(`Note: ${printableText(silent)}`);
  if (priorNote !== null) notes.push(`Note: ${printableText(priorNote)}`);
  if (report.missingDaysNote !== null) notes.push(`Note: ${printableText(report.missingDaysNote)}`);
  for (const { note, names } of projectPriorNotes(report)) {
    notes.push(`Note: ${names.map(printableText).join(", ")}: ${printableText(note)}`);
  }
  if (excluded.length > 0) {
    notes.push(`Totals leave out: ${excluded.map(printableText).join(", ")} (unavailable)`);
  }
  for (const note of notes) lines.push(...wrap(note, layout.width, INDENT, HANGING));
  return lines;
}
