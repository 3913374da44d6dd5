import type { AmountFigure, Figures, RateFigure } from "../report/types.js";
import { formatCount, formatDuration, formatRate } from "./format.js";

/** One figure of a digest's headline: what it is called and how its value reads. */
export interface HeadlineFigure {
  label: string;
  figure: RateFigure | AmountFigure;
  value: (figures: Figures) => string;
}

/**
 * The team headline, in reading order: pairs that sit side by side in Slack's two-column
 * fields (run pass rate beside flaky rate, and so on).
 */
export const HEADLINE_FIGURES: readonly HeadlineFigure[] = [
  { label: "Run pass rate", figure: "runPassRate", value: (f) => formatRate(f.runPassRate) },
  { label: "Flaky rate", figure: "flakyRate", value: (f) => formatRate(f.flakyRate) },
  { label: "Runs", figure: "runs", value: (f) => formatCount(f.runs) },
  {
    label: "Mean run duration",
    figure: "meanRunDurationMs",
    value: (f) => formatDuration(f.meanRunDurationMs),
  },
  { label: "Test pass rate", figure: "testPassRate", value: (f) => formatRate(f.testPassRate) },
  { label: "Test results", figure: "tests", value: (f) => formatCount(f.tests) },
  { label: "Failed tests", figure: "testsFailed", value: (f) => formatCount(f.testsFailed) },
  { label: "Timed-out tests", figure: "testsTimedOut", value: (f) => formatCount(f.testsTimedOut) },
];
