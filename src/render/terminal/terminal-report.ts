import { periodDays } from "../../periods/calendar-date.js";
import type { Period } from "../../periods/types.js";
import type { ProjectReport, Report, UnavailableProject } from "../../report/types.js";
import { comparisonLabel, projectPriorNotes } from "../comparison-label.js";
import { formatPeriod, formatPp, formatRate } from "../format.js";
import { HEADLINE_FIGURES } from "../headline-figures.js";
import { silentNews, silentSentence, silentTotalsNote } from "../silent-news.js";
import { worstFirst } from "../worst-first.js";
import { INDENT, projectLines, type TerminalLayout, terminalDelta } from "./terminal-projects.js";
import { clean, clip, pad, paint, visibleLength, wrap } from "./terminal-style.js";

export interface TerminalOptions {
  /** ANSI colour; the CLI decides from isTTY and NO_COLOR. */
  color: boolean;
  /** Columns to fit; default 100. */
  width?: number;
}

const DEFAULT_WIDTH = 100;
const HANGING = INDENT.repeat(2);

/**
 * A digest as terminal text for `preview`: the period and what it is compared with, the team
 * headline with deltas, one line per project with a sparkline, movers, alerts, unavailable
 * projects. Text from the API or config is stripped of control characters.
 */
export function renderTerminalReport(report: Report, options: TerminalOptions): string {
  const layout: TerminalLayout = { color: options.color, width: options.width ?? DEFAULT_WIDTH };
  const available = worstFirst(report.projects.filter((p) => p.status === "ok"));
  const unavailable = report.projects.filter((p) => p.status === "unavailable");
  const sections = [
    heading(report, layout),
    silentLines(report, layout),
    headline(report, layout),
    projectLines(available, layout, report.total),
    moverLines(report, layout),
    alertLines(report, layout),
    unavailableLines(unavailable, layout),
  ];
  const text = sections.filter((lines) => lines.length > 0).map((lines) => lines.join("\n"));
  return `${text.join("\n\n")}\n`;
}

function heading(report: Report, layout: TerminalLayout): string[] {
  const { team, digest, periods } = report;
  const title = `${clean(team.title)} \u00b7 ${clean(digest)} \u00b7 ${formatPeriod(periods.current)}`;
  const period = [formatPeriod(periods.current), daysLabel(periods.current), clean(team.timezone)];
  return [
    paint(clip(title, layout.width), "title", layout.color),
    `Period    ${period.filter(Boolean).join(" \u00b7 ")}`,
    `Compared  ${comparisonLabel(periods)}`,
  ];
}

/** A suite that stopped, before any figure. */
function silentLines(report: Report, layout: TerminalLayout): string[] {
  return silentNews(report).flatMap((n) =>
    wrap(`! ${clean(silentSentence(n))}`, layout.width, "", INDENT).map((line) =>
      paint(line, "bad", layout.color),
    ),
  );
}

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
  if (silent !== null) notes.push(`Note: ${clean(silent)}`);
  if (priorNote !== null) notes.push(`Note: ${clean(priorNote)}`);
  for (const { note, names } of projectPriorNotes(report)) {
    notes.push(`Note: ${names.map(clean).join(", ")}: ${clean(note)}`);
  }
  if (excluded.length > 0) {
    notes.push(`Totals leave out: ${excluded.map(clean).join(", ")} (unavailable)`);
  }
  for (const note of notes) lines.push(...wrap(note, layout.width, INDENT, HANGING));
  return lines;
}

function moverLines(report: Report, layout: TerminalLayout): string[] {
  if (report.topMovers.length === 0) return [];
  const names = report.topMovers.map((m) => clip(clean(m.name), 40));
  const width = Math.max(...names.map((n) => visibleLength(n)));
  return [
    paint("Top movers (significantly worse)", "title", layout.color),
    ...report.topMovers.map((m, i) => {
      const figure = m.figure === "flakyRate" ? "flaky rate" : "run pass rate";
      const change = formatPp(m.pp);
      const moved = `${figure} ${formatRate(m.prior)} \u2192 ${formatRate(m.current)}`;
      const cue = paint(`(${change})`, "bad", layout.color);
      return `${INDENT}${pad(names[i] ?? "", width)}  ${moved} ${cue}`;
    }),
  ];
}

function alertLines(report: Report, layout: TerminalLayout): string[] {
  if (report.alerts.length === 0) return [];
  const names = new Map(report.projects.map((p: ProjectReport) => [p.projectId, p.name]));
  const critical = (severity: string) => Number(severity === "critical");
  const ordered = [...report.alerts].sort((a, b) => critical(b.severity) - critical(a.severity));
  const lines = [paint("Alerts firing", "title", layout.color)];
  for (const a of ordered) {
    const scope = a.projectId === null ? "team" : (names.get(a.projectId) ?? a.projectId);
    const tone = a.severity === "critical" ? "bad" : "noise";
    const severity = paint(pad(a.severity, 8), tone, layout.color);
    const what = `${clean(a.alert)} \u00b7 ${clean(scope)}: ${formatRate(a.value)} (threshold ${formatRate(a.threshold)})`;
    // Wrapped without the colour codes, which take no columns; the severity is 8 wide.
    const [first = "", ...rest] = wrap(what, layout.width, `${INDENT}${" ".repeat(10)}`, HANGING);
    lines.push(`${INDENT}${severity}  ${first.slice(INDENT.length + 10)}`, ...rest);
  }
  return lines;
}

function unavailableLines(
  projects: readonly UnavailableProject[],
  layout: TerminalLayout,
): string[] {
  if (projects.length === 0) return [];
  return [
    paint("Unavailable (left out of the totals)", "title", layout.color),
    ...projects.flatMap((p) => {
      const line = `${clean(p.name || p.projectId)} (${clean(p.projectId)}): ${clean(p.reason.message)}`;
      return wrap(line, layout.width, INDENT, HANGING);
    }),
  ];
}
