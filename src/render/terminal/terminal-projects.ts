import type {
  AmountDelta,
  AmountFigure,
  AvailableProject,
  RateDelta,
  RateFigure,
  TeamTotal,
} from "../../report/types.js";
import { deltaView, deltaWords, toneOf } from "../delta-view.js";
import type { DigestNews } from "../digest-news.js";
import { formatPeriod, sparkline } from "../format.js";
import { printableText } from "../printable-text.js";
import { type TableFigure, tableFigures } from "../table-figures.js";
import { WORST_FIRST_LABEL } from "../worst-first.js";
import { clip, pad, paint, visibleLength } from "./terminal-style.js";

/** Layout of the preview: colour on or off, and the columns to fit. */
export interface TerminalLayout {
  color: boolean;
  width: number;
}

export const INDENT = "  ";
const GAP = "  ";
// At 80 columns a 17-column name leaves room for a week of sparkline, worth more than 3 letters.
const MIN_NAME = 16;
const MAX_NAME = 40;

/**
 * A delta with its arrow, coloured by whether the change is good news for the figure; noise
 * dimmed and, where asked, marked "(noise)"; "new" and "n/a" dimmed; nothing without data.
 */
export function terminalDelta(
  figure: RateFigure | AmountFigure,
  delta: RateDelta | AmountDelta,
  layout: TerminalLayout,
  explainNoise: boolean,
): string {
  const view = deltaView(figure, delta);
  switch (view.verdict) {
    case "none":
      return "";
    case "new":
    case "unavailable":
      return paint(view.text, "noise", layout.color);
    case "noise": {
      const words = deltaWords(view);
      return paint(explainNoise ? `${words} (noise)` : words, "noise", layout.color);
    }
    case "flat":
      return view.text;
    default:
      return paint(`${view.arrow} ${view.text}`.trim(), toneOf(view), layout.color);
  }
}

/**
 * One aligned line per project, with the flaky rate by day as a sparkline. The value columns are
 * the table's figures (`tableFigures`: those that are news in this digest first); in a narrow
 * terminal the least urgent of them go, never the news. The name column is as wide as the
 * longest name, cut at the room left (at least 16 columns, at most 40); on a long period in a
 * narrow terminal the sparkline keeps the most recent days, and its heading names them.
 * Each sparkline has its own scale; the team's line on top is the one to compare with.
 */
export function projectLines(
  projects: readonly AvailableProject[],
  layout: TerminalLayout,
  team: TeamTotal | null,
  news: DigestNews,
): string[] {
  if (projects.length === 0) return [];
  const teamRow = team ? [{ ...team, name: "Team", projectId: "team" }] : [];
  const rows = [...teamRow, ...projects];
  const days = Math.max(...projects.map((p) => p.daily.length));
  // As wide as the longest name (or the heading), and never wider than the room left.
  const longest = Math.max(
    "Project".length,
    ...rows.map((p) => visibleLength(printableText(p.name || p.projectId))),
  );
  // A week of sparkline is worth more than a fourth figure that is not news.
  const trendRoom = days > 1 ? Math.min(days, 7) : 0;
  let columns = tableColumns(rows, tableFigures(news), layout);
  for (
    let max = columns.length - 1;
    max >= 1 && fixedWidth(columns) + MIN_NAME + trendRoom > layout.width;
    max--
  ) {
    columns = tableColumns(rows, tableFigures(news, max), layout);
  }
  const fixed = fixedWidth(columns);
  const widest = Math.max(
    MIN_NAME,
    Math.min(MAX_NAME, layout.width - fixed - (days > 1 ? days : 0)),
  );
  const nameWidth = Math.min(longest, widest);
  const trendWidth = days > 1 ? Math.max(0, Math.min(days, layout.width - fixed - nameWidth)) : 0;
  const head = [
    pad("Project", nameWidth),
    ...columns.flatMap((c) => [pad(c.label, c.valueWidth, "right"), pad("\u0394", c.deltaWidth)]),
  ];
  // The last heading may run past its column, never past the terminal: no wrapped heading.
  const room = layout.width - visibleLength(`${INDENT}${head.join(GAP)}${GAP}`);
  const shownDays = trendDays(projects, trendWidth);
  const full = trendWidth === days && days <= 7 ? "Flaky by day" : `Flaky, ${shownDays}`;
  const trendHead = [full, "by day"].find(
    (label) => trendWidth > 0 && visibleLength(label) <= room,
  );
  if (trendHead) head.push(trendHead);
  // Too narrow for the heading over the sparkline: the section title says what it is and which
  // days it shows.
  const trendNote =
    trendWidth > 0 && trendHead !== full ? ` \u00b7 at right: flaky rate by day, ${shownDays}` : "";
  const lines = [
    paint(`Projects (${WORST_FIRST_LABEL})${trendNote}`, "title", layout.color),
    `${INDENT}${head.join(GAP)}`.trimEnd(),
  ];
  for (const p of rows) {
    const trend = sparkline(p.daily.map((d) => d.figures.flakyRate));
    const cells = [
      pad(clip(printableText(p.name || p.projectId), nameWidth), nameWidth),
      ...columns.flatMap((c) => [
        pad(c.value(p.current), c.valueWidth, "right"),
        padDelta(terminalDelta(c.figure, p.deltas[c.figure], layout, false), c.deltaWidth),
      ]),
      trendWidth > 0 ? [...trend].slice(-trendWidth).join("") : "",
    ];
    lines.push(`${INDENT}${cells.join(GAP)}`.trimEnd());
  }
  return lines;
}

interface Column extends TableFigure {
  valueWidth: number;
  deltaWidth: number;
}

type Row = Pick<AvailableProject, "current" | "deltas">;

// Each column as wide as its widest cell, so a count in the thousands or a "(was 0)" fits.
function tableColumns(
  rows: readonly Row[],
  figures: readonly TableFigure[],
  layout: TerminalLayout,
): Column[] {
  return figures.map((c) => ({
    ...c,
    valueWidth: Math.max(c.label.length, ...rows.map((r) => visibleLength(c.value(r.current)))),
    deltaWidth: Math.max(
      1,
      ...rows.map((r) =>
        visibleLength(plain(terminalDelta(c.figure, r.deltas[c.figure], layout, false))),
      ),
    ),
  }));
}

/** Columns besides the name and the sparkline: the values, their deltas and the gaps. */
function fixedWidth(columns: readonly Column[]): number {
  const cells = columns.reduce((sum, c) => sum + c.valueWidth + c.deltaWidth, 0);
  return INDENT.length + cells + GAP.length * (columns.length * 2 + 1);
}

/** "Oct 2 – 31": the days the sparklines show, the most recent `width` of the longest series. */
function trendDays(projects: readonly AvailableProject[], width: number): string {
  const longest = projects.reduce((a, b) => (b.daily.length > a.daily.length ? b : a));
  const dates = longest.daily.slice(-Math.max(1, width)).map((d) => d.date);
  const start = dates[0] ?? "";
  const end = dates[dates.length - 1] ?? start;
  return formatPeriod({ start, end }).replace(/, \d{4}$/, "");
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI codes take no columns.
const ANSI = /\x1b\[[0-9;]*m/g;

function plain(text: string): string {
  return text.replace(ANSI, "");
}

// Pads a possibly coloured delta by the text it shows.
function padDelta(text: string, width: number): string {
  return `${text}${" ".repeat(Math.max(0, width - visibleLength(plain(text))))}`;
}
