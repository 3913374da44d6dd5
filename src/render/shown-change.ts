import type { AmountFigure, RateFigure } from "../report/types.js";
import { fixed, formatCount, formatDuration, roundTo, signedFixed } from "./format.js";

// A change printed beside the two figures it is between must add up as printed (PRODUCT.md
// "Numbers"): a reader who subtracts `2.4% → 3.0%` must get the `+0.6 pp` beside it, not the
// `+0.7 pp` of the unrounded 2.36% and 3.03%. Significance and colour still read the exact
// values (the delta view); only the words come from here, for every renderer.

/** Two figures and the change between them, as they are printed together. */
export interface ShownChange {
  before: string;
  after: string;
  /** "+0.6 pp", "−8%", "±0.0 pp"; "" from a prior of 0. */
  delta: string;
}

/**
 * A figure's prior and current values with their change, so that the printed change is the
 * difference of the printed figures: rates with one decimal, or both with two when one-decimal
 * rounding would print a change that differs from the real one rounded (2.36% → 3.03%: `+0.67 pp`,
 * never `2.4% → 3.0% (+0.7 pp)`); counts as they are, their change in percent of the printed
 * prior; durations humanised, their change in percent of the printed (rounded) durations.
 */
export function shownChange(
  figure: RateFigure | AmountFigure,
  prior: number,
  current: number,
): ShownChange {
  switch (figure) {
    case "runPassRate":
    case "testPassRate":
    case "flakyRate":
      return rateChange(prior * 100, current * 100);
    case "meanRunDurationMs":
      return amountChange(
        formatDuration(prior),
        formatDuration(current),
        shownDurationMs(prior),
        shownDurationMs(current),
      );
    default:
      return amountChange(formatCount(prior), formatCount(current), prior, current);
  }
}

function rateChange(prior: number, current: number): ShownChange {
  for (const digits of [1, 2]) {
    const before = roundTo(prior, digits);
    const after = roundTo(current, digits);
    const printed = roundTo(after - before, digits);
    // At two decimals the printed difference stands even if it is a hundredth off the real one:
    // a change that does not add up is worse than one a hundredth off.
    if (digits === 2 || printed === roundTo(current - prior, digits)) {
      return {
        before: `${fixed(before, digits)}%`,
        after: `${fixed(after, digits)}%`,
        delta: `${signedFixed(printed, digits)} pp`,
      };
    }
  }
  throw new Error("unreachable");
}

function amountChange(
  before: string,
  after: string,
  priorShown: number,
  currentShown: number,
): ShownChange {
  const diff = currentShown - priorShown;
  // From 0 there is no percent: "0 → 5" says the change itself.
  if (priorShown === 0) return { before, after, delta: diff === 0 ? "\u00b10" : "" };
  return { before, after, delta: `${signedFixed((diff / priorShown) * 100, 0)}%` };
}

/** The duration `formatDuration` prints, in ms: whole seconds, or whole minutes past an hour. */
function shownDurationMs(ms: number): number {
  const seconds = Math.round(ms / 1000);
  return (seconds >= 3600 ? Math.floor(seconds / 60) * 60 : seconds) * 1000;
}
