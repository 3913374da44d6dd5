import type { CardElement } from "../../../messages.js";
import { deltaView, deltaWords, toneOf } from "../../../render/delta-view.js";
import { HEADLINE_FIGURES } from "../../../render/headline-figures.js";
import type { TableFigure } from "../../../render/table-figures.js";
import { truncateText } from "../../../render/truncate-text.js";
import type {
  AmountDelta,
  AmountFigure,
  AvailableProject,
  RateDelta,
  RateFigure,
  TeamTotal,
} from "../../../report/types.js";
import { type CardColour, type Run, richText, table } from "./card-parts.js";

// The team's figures and the projects' rows, as tables whose change cells carry the delta
// view's verdict as colour: green for better, red for worse, uncoloured noise marked ≈.

const NAME_CHARS = 40;

const TONE_COLOUR: Record<"good" | "bad" | "neutral", CardColour> = {
  good: "good",
  bad: "attention",
  neutral: "default",
};

/** A delta as a run: "↑ +1.2 pp" in green or red when it is news, "≈ +0.1 pp" subtle when not. */
function deltaRun(figure: RateFigure | AmountFigure, delta: RateDelta | AmountDelta): Run {
  const view = deltaView(figure, delta);
  if (view.verdict === "none" || view.verdict === "unavailable") return { text: "" };
  const tone = toneOf(view);
  const text = [view.arrow === "\u2248" ? "" : view.arrow, deltaWords(view)]
    .filter((p) => p !== "")
    .join(" ");
  return tone === "neutral"
    ? { text, subtle: true }
    : { text, colour: TONE_COLOUR[tone], bold: true };
}

/** The team's headline figures: figure, value, change. */
export function teamFigures(total: TeamTotal): CardElement {
  const rows = HEADLINE_FIGURES.map(({ label, figure, value }) => [
    [richText([label])],
    [richText([{ text: value(total.current), bold: true }])],
    [richText([deltaRun(figure, total.deltas[figure])])],
  ]);
  return table(["Team", "This period", "Change"], rows);
}

/**
 * A row per project (the team's first): the table's figures (those that are news in this
 * digest, at most four: `tableFigures`), each with its change.
 */
export function projectRows(
  projects: readonly AvailableProject[],
  team: TeamTotal,
  columns: readonly TableFigure[],
): CardElement {
  const named = [{ ...team, name: "Team", projectId: "team" }, ...projects];
  const rows = named.map((p, i) => [
    [richText([{ text: truncateText(p.name || p.projectId, NAME_CHARS), bold: i === 0 }])],
    ...columns.map((c) => valueCell(c.value(p.current), deltaRun(c.figure, p.deltas[c.figure]))),
  ]);
  return table(["Project", ...columns.map((c) => c.label)], rows);
}

// The change under the value, so four columns fit a phone.
function valueCell(value: string, change: Run): CardElement[] {
  return [
    richText([value]),
    ...(change.text === "" ? [] : [richText([{ ...change, size: "small" }], { spacing: "none" })]),
  ];
}
