import { DEFAULT_RULES, MIN_CHANGE_PCT } from "../report/deltas.js";
import type {
  AmountFigure,
  ProjectSlices,
  RateEffects,
  RateFigure,
  Slice,
  SliceSplit,
} from "../report/types.js";
import { deltaView } from "./delta-view.js";
import { formatPp } from "./format.js";
import { shownChange } from "./shown-change.js";

// Where a change sits, in words, for the end of its news line (issue 37): the slices that moved
// on their own ("on release-2.3 (1.0% → 8.0%); main unchanged"), or, when runs moving between
// slices explain more of a rate's change than the slices' own rates, the mix ("more runs on
// release-2.3, which was already flaky (mix +0.4 pp)"). Branches first, then authors, then tags.

const RATE_FIGURES: ReadonlySet<string> = new Set(["runPassRate", "testPassRate", "flakyRate"]);

/** How many moved or unchanged slices a line names. */
const NAMED = 2;

/** " — on release-2.3 (1.0% → 8.0%); main unchanged", or "" without slices. */
export function sliceWords(
  figure: RateFigure | AmountFigure,
  slices: ProjectSlices | undefined,
): string {
  if (!slices || slices.splits.length === 0) return "";
  for (const split of slices.splits) {
    const effects = RATE_FIGURES.has(figure) ? split.effects[figure as RateFigure] : undefined;
    if (effects && Math.abs(effects.mixPp) > Math.abs(effects.ratePp)) {
      const words = mixWords(split, figure as RateFigure, effects);
      if (words) return ` \u2014 ${words}`;
    }
    const moved = split.slices.filter((s) => isNews(figure, s));
    if (moved.length > 0) return ` \u2014 ${movedWords(split, moved, figure)}`;
  }
  const dimensions = slices.splits.map((s) => DIMENSION_WORDS[s.dimension]).join(", ");
  return ` \u2014 no single slice moved it (${dimensions})`;
}

const DIMENSION_WORDS: Record<SliceSplit["dimension"], string> = {
  branch: "branches",
  author: "authors",
  tags: "tags",
};

function isNews(figure: RateFigure | AmountFigure, slice: Slice): boolean {
  const verdict = deltaView(figure, slice.deltas[figure]).verdict;
  return verdict === "worse" || verdict === "better" || verdict === "changed";
}

/** "on release-2.3", "by Oliver Smith", "on other branches", "on tag smoke". */
function where(split: SliceSplit, slice: Slice): string {
  if (split.dimension === "branch") return slice.other ? "on other branches" : `on ${slice.name}`;
  if (split.dimension === "author") return slice.other ? "by other authors" : `by ${slice.name}`;
  return `on tag ${slice.name}`;
}

/** The slice itself, for "main unchanged". */
function named(split: SliceSplit, slice: Slice): string {
  return split.dimension === "tags" ? `tag ${slice.name}` : slice.name;
}

function movedWords(
  split: SliceSplit,
  moved: readonly Slice[],
  figure: RateFigure | AmountFigure,
): string {
  const shown = [...moved]
    .sort((a, b) => size(figure, b) - size(figure, a))
    .slice(0, NAMED)
    .map((s) => {
      const change = shownChange(figure, s.prior[figure] ?? 0, s.current[figure] ?? 0);
      return `${where(split, s)} (${change.before} \u2192 ${change.after})`;
    });
  const still = split.slices
    .filter((s) => !s.other && !moved.includes(s) && s.deltas[figure].kind === "change")
    .slice(0, NAMED)
    .map((s) => named(split, s));
  const unchanged = still.length > 0 ? `; ${still.join(", ")} unchanged` : "";
  return `${shown.join(" and ")}${unchanged}`;
}

/** A change in news thresholds, as the news orders them. */
function size(figure: RateFigure | AmountFigure, slice: Slice): number {
  const delta = slice.deltas[figure];
  if (delta.kind !== "change") return 0;
  if ("pp" in delta) return Math.abs(delta.pp) / DEFAULT_RULES.minChangePp;
  return delta.pct === null ? Number.MAX_VALUE : Math.abs(delta.pct) / MIN_CHANGE_PCT;
}

/** "more runs on release-2.3, which was already flaky (mix +0.4 pp)"; "" when no slice drives it. */
function mixWords(split: SliceSplit, figure: RateFigure, effects: RateEffects): string {
  const driver = [...split.slices]
    .filter((s) => Math.sign(s.effects[figure]?.mixPp ?? 0) === Math.sign(effects.mixPp))
    .sort(
      (a, b) => Math.abs(b.effects[figure]?.mixPp ?? 0) - Math.abs(a.effects[figure]?.mixPp ?? 0),
    )[0];
  if (!driver) return "";
  const weight = (side: "current" | "prior") => {
    const of = (s: Slice) => (figure === "runPassRate" ? s[side].runs : s[side].tests);
    const total = split.slices.reduce((a, s) => a + of(s), 0);
    return total > 0 ? of(driver) / total : 0;
  };
  const more = weight("current") > weight("prior") ? "more" : "fewer";
  const rateOf = (side: "current" | "prior") => driver[side][figure];
  const mean =
    ((rateOf("current") ?? rateOf("prior") ?? 0) + (rateOf("prior") ?? rateOf("current") ?? 0)) / 2;
  const whole = wholeRate(split, figure);
  const higher = mean > whole;
  const already =
    figure === "flakyRate"
      ? higher
        ? "was already flaky"
        : "was less flaky"
      : higher
        ? "already passed more"
        : "already passed less";
  return `${more} runs ${where(split, driver)}, which ${already} (mix ${formatPp(effects.mixPp)})`;
}

/** The rate over every slice of the partition, both periods together. */
function wholeRate(split: SliceSplit, figure: RateFigure): number {
  let hits = 0;
  let trials = 0;
  for (const s of split.slices) {
    for (const f of [s.current, s.prior]) {
      if (figure === "runPassRate") {
        hits += f.runsPassed;
        trials += f.runs;
      } else {
        hits += figure === "flakyRate" ? f.testsFlaky : f.testsPassed;
        trials += f.tests;
      }
    }
  }
  return trials > 0 ? hits / trials : 0;
}
