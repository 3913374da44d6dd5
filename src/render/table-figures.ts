import type { Figures } from "../report/types.js";
import type { DigestNews, NewsFigure } from "./digest-news.js";
import { formatCount, formatDuration, formatRate } from "./format.js";

// Which figures a project table shows (Slack, Teams, the terminal, the email): the ones that are
// news in this digest, so a table never hides what made the team red, and at most four, so a row
// stays readable on a 390 px phone. Every figure of every project is in the workbook.

/** Value columns a project table carries at most. */
const TABLE_FIGURES_MAX = 4;

/** One value column: its short heading and how a value reads. */
export interface TableFigure {
  figure: NewsFigure;
  label: string;
  value: (figures: Figures) => string;
}

const COLUMNS: Record<NewsFigure, TableFigure> = {
  runs: { figure: "runs", label: "Runs", value: (f) => formatCount(f.runs) },
  runPassRate: {
    figure: "runPassRate",
    label: "Run pass",
    value: (f) => formatRate(f.runPassRate),
  },
  flakyRate: { figure: "flakyRate", label: "Flaky", value: (f) => formatRate(f.flakyRate) },
  testsFailed: { figure: "testsFailed", label: "Failed", value: (f) => formatCount(f.testsFailed) },
  testsTimedOut: {
    figure: "testsTimedOut",
    label: "Timed out",
    value: (f) => formatCount(f.testsTimedOut),
  },
  testPassRate: {
    figure: "testPassRate",
    label: "Test pass",
    value: (f) => formatRate(f.testPassRate),
  },
  meanRunDurationMs: {
    figure: "meanRunDurationMs",
    label: "Mean run",
    value: (f) => formatDuration(f.meanRunDurationMs),
  },
  tests: { figure: "tests", label: "Results", value: (f) => formatCount(f.tests) },
};

/** Left to right, whichever of them are shown. */
const READING_ORDER: readonly NewsFigure[] = [
  "runs",
  "runPassRate",
  "flakyRate",
  "testsFailed",
  "testsTimedOut",
  "testPassRate",
  "meanRunDurationMs",
  "tests",
];

/** Shown when the news leaves room: the two headline rates, then runs. */
const USUAL: readonly NewsFigure[] = ["runPassRate", "flakyRate", "runs"];

/**
 * The value columns of the project tables: the figures that are news in this digest (team or
 * any project), most severe first, then run pass rate, flaky rate and runs, cut at `max`, and
 * shown in a fixed reading order. A renderer short of room asks for fewer and keeps the news.
 */
export function tableFigures(news: DigestNews, max = TABLE_FIGURES_MAX): TableFigure[] {
  const wanted: NewsFigure[] = [];
  for (const figure of [...news.lines.map((l) => l.figure), ...USUAL]) {
    if (figure !== undefined && !wanted.includes(figure)) wanted.push(figure);
  }
  const chosen = new Set(wanted.slice(0, Math.max(1, max)));
  return READING_ORDER.filter((f) => chosen.has(f)).map((f) => COLUMNS[f]);
}
