import { poissonTest } from "./poisson-test.js";
import { type Proportion, twoProportionTest } from "./two-proportion-test.js";
import type {
  AmountDelta,
  AmountFigure,
  ChangeRules,
  Deltas,
  Figures,
  NoDelta,
  RateDelta,
  RateFigure,
} from "./types.js";

/** Why a comparison has no prior: the reason shown instead of a delta. */
export interface Unavailable {
  unavailable: string;
}

/** The prior side of a comparison: its figures, or why there are none. */
export type PriorSide = Figures | Unavailable;

/** PRODUCT.md's defaults: 0.5 pp for rates, equal spans. */
export const DEFAULT_RULES: ChangeRules = { minChangePp: 0.5, currentDays: 1, priorDays: 1 };

/** A count's or a duration's change smaller than this (10%) is no news, however certain. */
export const MIN_CHANGE_PCT = 0.1;

/** Counts of events, whose noise is Poisson; durations are means and get no test. */
const COUNTS: ReadonlySet<AmountFigure> = new Set([
  "runs",
  "tests",
  "testsFailed",
  "testsTimedOut",
  "testsFlaky",
]);

/** Each rate as successes out of trials; the trials decide whether the rate has data at all. */
const RATES: Record<RateFigure, (f: Figures) => Proportion> = {
  runPassRate: (f) => ({ hits: f.runsPassed, trials: f.runs }),
  testPassRate: (f) => ({ hits: f.testsPassed, trials: f.tests }),
  flakyRate: (f) => ({ hits: f.testsFlaky, trials: f.tests }),
};

/**
 * Each amount, or null when its span had no data for it. A count is data only when its span
 * had runs (or test results) at all: 0 failed of 500 results is data, 0 of 0 is not.
 */
const AMOUNTS: Record<AmountFigure, (f: Figures) => number | null> = {
  runs: (f) => (f.runs > 0 ? f.runs : null),
  meanRunDurationMs: (f) => (f.runs > 0 ? f.meanRunDurationMs : null),
  tests: (f) => (f.tests > 0 ? f.tests : null),
  testsFailed: (f) => (f.tests > 0 ? f.testsFailed : null),
  testsTimedOut: (f) => (f.tests > 0 ? f.testsTimedOut : null),
  testsFlaky: (f) => (f.tests > 0 ? f.testsFlaky : null),
};

/**
 * Why a figure has no ordinary delta when one side is missing. No current data comes first
 * (there is nothing to compare), then an unavailable prior, else the prior had no data: new.
 */
function noDelta(hasCurrent: boolean, prior: unknown): NoDelta {
  if (!hasCurrent) return { kind: "none" };
  if (isUnavailable(prior)) return { kind: "unavailable", reason: prior.unavailable };
  return { kind: "new" };
}

function isUnavailable(value: unknown): value is Unavailable {
  return typeof value === "object" && value !== null && "unavailable" in value;
}

/** A rate's change in percentage points, marked significant only by a z-test at 95%. */
export function rateDelta(
  current: Proportion,
  prior: Proportion | Unavailable,
  rules: ChangeRules = DEFAULT_RULES,
): RateDelta {
  if (isUnavailable(prior) || current.trials === 0 || prior.trials === 0) {
    return noDelta(current.trials > 0, prior);
  }
  const test = twoProportionTest(current, prior);
  const pp = (current.hits / current.trials - prior.hits / prior.trials) * 100;
  // A hair of float error must not push an exact 0.5 pp under the line.
  const large = Math.abs(pp) + 1e-9 >= rules.minChangePp;
  return { kind: "change", pp, significant: test.significant, pValue: test.pValue, large };
}

/**
 * A count's or duration's change; null on either side means that span had no data for it.
 * `pct` is a fraction (−0.08 for −8%), null when the prior value is 0.
 */
export function amountDelta(
  current: number | null,
  prior: number | null | Unavailable,
  { count = false, rules = DEFAULT_RULES }: { count?: boolean; rules?: ChangeRules } = {},
): AmountDelta {
  if (current === null || prior === null || isUnavailable(prior)) {
    return noDelta(current !== null, prior);
  }
  const diff = current - prior;
  const pct = prior !== 0 ? diff / prior : null;
  const significant = count
    ? poissonTest(
        { count: current, exposure: rules.currentDays },
        { count: prior, exposure: rules.priorDays },
      ).significant
    : true;
  const large = pct === null ? diff !== 0 : Math.abs(pct) + 1e-9 >= MIN_CHANGE_PCT;
  return { kind: "change", diff, pct, significant, large };
}

/** Every delta between a span and its prior, each judged by `rules`. */
export function deltasBetween(
  current: Figures,
  prior: PriorSide,
  rules: ChangeRules = DEFAULT_RULES,
): Deltas {
  const rate = (figure: RateFigure) =>
    rateDelta(RATES[figure](current), isUnavailable(prior) ? prior : RATES[figure](prior), rules);
  const amount = (figure: AmountFigure) =>
    amountDelta(AMOUNTS[figure](current), isUnavailable(prior) ? prior : AMOUNTS[figure](prior), {
      count: COUNTS.has(figure),
      rules,
    });
  return {
    runPassRate: rate("runPassRate"),
    testPassRate: rate("testPassRate"),
    flakyRate: rate("flakyRate"),
    runs: amount("runs"),
    meanRunDurationMs: amount("meanRunDurationMs"),
    tests: amount("tests"),
    testsFailed: amount("testsFailed"),
    testsTimedOut: amount("testsTimedOut"),
    testsFlaky: amount("testsFlaky"),
  };
}
