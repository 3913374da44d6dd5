import type {
  AmountDelta,
  AmountFigure,
  AvailableProject,
  RateDelta,
  RateFigure,
  TeamTotal,
} from "../../report/types.js";
import { deltaView, deltaWords, toneOf } from "../delta-view.js";
import { formatCount, formatRate, sparkline } from "../format.js";
import { printableText } from "../printable-text.js";
import { WORST_FIRST_LABEL } from "../worst-first.js";
import { clip, pad, paint, visibleLength } from "./terminal-style.js";

/** Layout of the preview: colour on or off, and the columns to fit. */
export interface TerminalLayout {
  color: boolean;
  width: number;
}

export const INDENT = "  ";
const GAP = "  ";
const DELTA_WIDTH = 10;
// At 80 columns a 17-column name leaves room for a week of sparkline, worth more than 3 letters.
const MIN_NAME = 16;
const MAX_NAME = 40;
// Columns besides the name and the sparkline: runs, run pass, Δ, flaky, Δ and the gaps.
const FIXED = INDENT.length + 7 + 9 + DELTA_WIDTH + 6 + DELTA_WIDTH + GAP.length * 6;

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
 * One aligned line per project, with the flaky rate by day as a sparkline. The name column is
 * as wide as the longest name, cut at the room left (at least 16 columns, at most 40); on a
 * long period in a narrow terminal the sparkline keeps the most recent days.
 * Each sparkline has its own scale; the team's line on top is the one to compare with.
 */
export function projectLines(
  projects: readonly AvailableProject[],
  layout: TerminalLayout,
  team: TeamTotal | null = null,
): string[] {
  if (projects.length === 0) return [];
  const days = Math.max(...projects.map((p) => p.daily.length));
  // As wide as the longest name (or the heading), and never wider than the room left.
  const longest = Math.max(
    "Project".length,
    ...[team ? "Team" : "", ...projects.map((p) => printableText(p.name || p.projectId))].map(
      visibleLength,
    ),
  );
  const widest = Math.max(
    MIN_NAME,
    Math.min(MAX_NAME, layout.width - FIXED - (days > 1 ? days : 0)),
  );
  const nameWidth = Math.min(longest, widest);
  const trendWidth = days > 1 ? Math.max(0, Math.min(days, layout.width - FIXED - nameWidth)) : 0;
  const head = [
    pad("Project", nameWidth),
    pad("Runs", 7, "right"),
    pad("Run pass", 9, "right"),
    pad("\u0394", DELTA_WIDTH),
    pad("Flaky", 6, "right"),
    pad("\u0394", DELTA_WIDTH),
  ];
  // The last heading may run past its column, never past the terminal: no wrapped heading.
  const room = layout.width - visibleLength(`${INDENT}${head.join(GAP)}${GAP}`);
  const trendHead = [
    trendWidth === days ? "Flaky by day" : `Flaky, last ${trendWidth} days`,
    "by day",
  ].find((label) => trendWidth > 0 && visibleLength(label) <= room);
  if (trendHead) head.push(trendHead);
  // Too narrow for a heading over the sparkline: the section title says what it is.
  const trendNote = trendWidth > 0 && !trendHead ? " \u00b7 at right: flaky rate by day" : "";
  const lines = [
    paint(`Projects (${WORST_FIRST_LABEL})${trendNote}`, "title", layout.color),
    `${INDENT}${head.join(GAP)}`.trimEnd(),
  ];
  const teamRow = team ? [{ ...team, name: "Team", projectId: "team" }] : [];
  for (const p of [...teamRow, ...projects]) {
    const trend = sparkline(p.daily.map((d) => d.figures.flakyRate));
    const cells = [
      pad(clip(printableText(p.name || p.projectId), nameWidth), nameWidth),
      pad(formatCount(p.current.runs), 7, "right"),
      pad(formatRate(p.current.runPassRate), 9, "right"),
      padDelta(terminalDelta("runPassRate", p.deltas.runPassRate, layout, false)),
      pad(formatRate(p.current.flakyRate), 6, "right"),
      padDelta(terminalDelta("flakyRate", p.deltas.flakyRate, layout, false)),
      trendWidth > 0 ? [...trend].slice(-trendWidth).join("") : "",
    ];
    lines.push(`${INDENT}${cells.join(GAP)}`.trimEnd());
  }
  return lines;
}

// Pads a possibly coloured delta by the text it shows.
function padDelta(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI codes take no columns.
  const shown = text.replace(/\x1b\[[0-9;]*m/g, "");
  return `${text}${" ".repeat(Math.max(0, DELTA_WIDTH - visibleLength(shown)))}`;
}
