import { type DeltaView, deltaView, deltaWords } from "../../../render/delta-view.js";
import type { AmountDelta, AmountFigure, RateDelta, RateFigure } from "../../../report/types.js";

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
  return cueOf(deltaView(figure, delta));
}

function cueOf(view: DeltaView): string {
  switch (view.verdict) {
    case "none":
    case "unavailable":
      return "";
    case "better":
      return spaced(TONE_MARK.good, view.arrow, view.text);
    case "worse":
      return spaced(TONE_MARK.bad, view.arrow, view.text);
    case "changed":
      return spaced(view.arrow, view.text);
    default:
      return deltaWords(view);
  }
}

function spaced(...parts: string[]): string {
  return parts.filter((p) => p !== "").join(" ");
}
