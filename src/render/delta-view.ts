import type { AmountDelta, AmountFigure, RateDelta, RateFigure } from "../report/types.js";
import { formatAmountChange, formatPp, risingIs, roundTo } from "./format.js";

// One reading of a delta for every renderer: whether it is news (better or worse), noise, flat,
// new or absent, its words and its arrow. Slack, the email, the terminal and the workbook all
// draw from this, so none of them re-derives "noise" from formatted text.

/**
 * - `better` / `worse`: news, good or bad for this figure (the only ones coloured): a change that
 *   is significant (z-test for rates, Poisson for counts) and large (≥ min_change_pp for rates,
 *   ≥ 10% for counts and durations), as the report judged it;
 * - `changed`: such news of a figure that is neither good nor bad when it rises (runs, tests);
 * - `noise`: a change that is not both (shown uncoloured as ≈); `flat`: one that rounds to nothing;
 * - `new`: the prior period had no data; `unavailable`: the prior could not be fetched;
 * - `none`: the current period has no data.
 */
export type DeltaVerdict =
  | "better"
  | "worse"
  | "changed"
  | "noise"
  | "flat"
  | "new"
  | "unavailable"
  | "none";

export interface DeltaView {
  verdict: DeltaVerdict;
  /** The change in words without cue: "+1.2 pp", "−8%", "(was 0)", "±0%", "new", "n/a"; "" for none. */
  text: string;
  /** "↑" or "↓" for a real change, "≈" for noise, "" otherwise. */
  arrow: "\u2191" | "\u2193" | "\u2248" | "";
}

/** How a delta of `figure` reads. */
export function deltaView(
  figure: RateFigure | AmountFigure,
  delta: RateDelta | AmountDelta,
): DeltaView {
  switch (delta.kind) {
    case "none":
      return { verdict: "none", text: "", arrow: "" };
    case "new":
      return { verdict: "new", text: "new", arrow: "" };
    case "unavailable":
      return { verdict: "unavailable", text: "n/a", arrow: "" };
    case "change":
      break;
  }
  const isRate = "pp" in delta;
  const text = isRate ? formatPp(delta.pp) : formatAmountChange(delta.diff, delta.pct);
  // A rate the z-test calls chance reads as noise even at ±0.0 pp: its prior was not the same.
  if (isRate && !delta.significant) return { verdict: "noise", text, arrow: "\u2248" };
  // A change that shows as ±0.0 pp or ±0% is no news, wherever it is shown.
  const shown = isRate ? delta.pp : delta.pct === null ? delta.diff : delta.pct * 100;
  if (roundTo(shown, isRate ? 1 : 0) === 0) {
    return { verdict: "flat", text, arrow: "" };
  }
  if (!delta.significant || !delta.large) return { verdict: "noise", text, arrow: "\u2248" };
  const change = isRate ? delta.pp : delta.diff;
  // "(was 0)" says the direction itself.
  const arrow = !isRate && delta.pct === null ? "" : change > 0 ? "\u2191" : "\u2193";
  const direction = risingIs(figure);
  if (direction === "neutral") return { verdict: "changed", text, arrow };
  return { verdict: change > 0 === (direction === "good") ? "better" : "worse", text, arrow };
}

/** The tone a renderer colours by: only better and worse carry colour. */
export function toneOf(view: DeltaView): "good" | "bad" | "neutral" {
  if (view.verdict === "better") return "good";
  if (view.verdict === "worse") return "bad";
  return "neutral";
}

/** The delta in words, noise marked: "+1.2 pp", "≈ +0.1 pp", "new", "n/a"; "" when none. */
export function deltaWords(view: DeltaView): string {
  return view.verdict === "noise" ? `\u2248 ${view.text}` : view.text;
}
