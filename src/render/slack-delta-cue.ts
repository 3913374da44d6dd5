import type { AmountDelta, AmountFigure, RateDelta, RateFigure } from "../report/types.js";
import { deltaArrow, deltaTone, formatAmountDelta, formatRateDelta } from "./format.js";

/** The colour cue of a change, by whether it is good or bad news for this figure. */
export const TONE_MARK = { good: "\u{1F7E2}", bad: "\u{1F534}", neutral: "" } as const;

/**
 * A delta as a Slack reader sees it: coloured by direction ("🔴 ↑ +0.8 pp" for a rising flaky
 * rate, "🟢 ↑ +1.2 pp" for a rising pass rate), noise uncoloured as "≈ +0.1 pp", "new" when the
 * prior had no data, and "" when there is nothing to compare (the context line says why).
 */
export function deltaCue(
  figure: RateFigure | AmountFigure,
  delta: RateDelta | AmountDelta,
): string {
  if (delta.kind === "none" || delta.kind === "unavailable") return "";
  if (delta.kind === "new") return "new";
  const text = "pp" in delta ? formatRateDelta(delta) : formatAmountDelta(delta);
  // Noise ("≈ …") and changes that round to nothing ("±0%") carry no colour and no arrow.
  if (text.startsWith("\u2248") || text.startsWith("\u00b1")) return text;
  return [TONE_MARK[deltaTone(figure, delta)], deltaArrow(delta), text].filter(Boolean).join(" ");
}

/** A delta in words for a notification or the fallback text: "+1.2 pp", "≈ +0.1 pp", "new"; "" when none. */
export function plainDelta(delta: RateDelta | AmountDelta): string {
  if (delta.kind === "none" || delta.kind === "unavailable") return "";
  if (delta.kind === "new") return "new";
  return "pp" in delta ? formatRateDelta(delta) : formatAmountDelta(delta);
}
