import { deltasBetween } from "./deltas.js";
import { figuresFromCounts } from "./figures.js";
import type { Proportion } from "./two-proportion-test.js";
import type {
  ChangeRules,
  Figures,
  RateEffects,
  RateFigure,
  Slice,
  SliceDimension,
  SliceSplit,
} from "./types.js";

// Where a change moved (issue 37). Branches and authors partition a project's runs: every run
// has one branch and one author, so the unfiltered counts are the declared slices' plus an
// "other" that holds the rest. A rate over a partition is a weighted mean of its slices' rates,
// so its change splits exactly (shift-share) into the slices' rates moving and the runs moving
// between slices. Tags overlap (a run carries several), so tag slices are only shown side by side.

/** One slice as fetched: its name and its figures in both periods. */
export interface FetchedSlice {
  name: string;
  current: Figures;
  prior: Figures;
}

/** Each rate as successes out of its denominator, the weight of a slice in the mix. */
const RATES: Record<RateFigure, (f: Figures) => Proportion> = {
  runPassRate: (f) => ({ hits: f.runsPassed, trials: f.runs }),
  testPassRate: (f) => ({ hits: f.testsPassed, trials: f.tests }),
  flakyRate: (f) => ({ hits: f.testsFlaky, trials: f.tests }),
};

/** The counts a partition's slices add up to, each of which "other" must keep non-negative. */
const COUNTS = [
  "runsPassed",
  "runsFailed",
  "testsPassed",
  "testsFailed",
  "testsSkipped",
  "testsFlaky",
  "testsTimedOut",
] as const;

/**
 * Shift-share of a rate over a partition: with wᵢ a part's share of the denominator and rᵢ its
 * rate, the change Σ w′ᵢr′ᵢ − Σ wᵢrᵢ equals Σ w̄ᵢ·Δrᵢ (rate effect) + Σ r̄ᵢ·Δwᵢ (mix effect),
 * bars being the two periods' means. A part empty in one period takes its other period's rate
 * there (its weight is 0, so any rate adds up; this one puts its whole move in the mix).
 */
export function shiftShare(
  parts: readonly { current: Proportion; prior: Proportion }[],
): RateEffects & { parts: RateEffects[] } {
  const total = (side: "current" | "prior") => parts.reduce((a, p) => a + p[side].trials, 0);
  const totals = { current: total("current"), prior: total("prior") };
  const split = parts.map(({ current, prior }) => {
    const r1 = current.trials > 0 ? current.hits / current.trials : null;
    const r0 = prior.trials > 0 ? prior.hits / prior.trials : null;
    const rc = r1 ?? r0 ?? 0;
    const rp = r0 ?? r1 ?? 0;
    const wc = totals.current > 0 ? current.trials / totals.current : 0;
    const wp = totals.prior > 0 ? prior.trials / totals.prior : 0;
    return {
      ratePp: ((wc + wp) / 2) * (rc - rp) * 100,
      mixPp: ((rc + rp) / 2) * (wc - wp) * 100,
    };
  });
  return {
    ratePp: split.reduce((a, p) => a + p.ratePp, 0),
    mixPp: split.reduce((a, p) => a + p.mixPp, 0),
    parts: split,
  };
}

/**
 * The unfiltered figures less the slices' (counts subtracted, the mean duration by its runs);
 * null with the first count that would go negative: the slices then overlap or the API's
 * answers disagree, and a split built on them would be wrong.
 */
function otherFigures(
  whole: Figures,
  slices: readonly Figures[],
): { ok: true; figures: Figures } | { ok: false; count: string } {
  const rest = (pick: (f: Figures) => number) =>
    pick(whole) - slices.reduce((a, f) => a + pick(f), 0);
  for (const count of COUNTS) {
    if (rest((f) => f[count]) < 0) return { ok: false, count };
  }
  const runs = rest((f) => f.runs);
  const durationOf = (f: Figures) => (f.meanRunDurationMs ?? 0) * f.runs;
  const duration = runs > 0 ? rest(durationOf) / runs : null;
  return {
    ok: true,
    figures: figuresFromCounts(
      {
        passed: rest((f) => f.runsPassed),
        failed: rest((f) => f.runsFailed),
        meanDurationMs: duration !== null && duration > 0 ? duration : null,
      },
      {
        passed: rest((f) => f.testsPassed),
        failed: rest((f) => f.testsFailed),
        skipped: rest((f) => f.testsSkipped),
        flaky: rest((f) => f.testsFlaky),
        timedOut: rest((f) => f.testsTimedOut),
      },
    ),
  };
}

/**
 * A branch or author split: the declared slices and "other", each with its own deltas (the
 * digest's tests and rules), and each rate's change as rate and mix effects. Refused, with the
 * reason, when "other" would hold a negative count in either period.
 */
export function splitPartition(
  dimension: Exclude<SliceDimension, "tags">,
  whole: { current: Figures; prior: Figures },
  declared: readonly FetchedSlice[],
  rules: ChangeRules,
): { ok: true; split: SliceSplit } | { ok: false; reason: string } {
  const current = otherFigures(
    whole.current,
    declared.map((s) => s.current),
  );
  const prior = otherFigures(
    whole.prior,
    declared.map((s) => s.prior),
  );
  if (!current.ok || !prior.ok) {
    const [period, count] = !current.ok
      ? ["this period", current.count]
      : ["the prior period", (prior as { count: string }).count];
    return {
      ok: false,
      reason: `${dimension} split left out: other would be negative (${count}, ${period}); the ${dimension} slices overlap or the API's answers disagree`,
    };
  }
  const parts = [
    ...declared.map((s) => ({ ...s, other: false })),
    { name: "other", other: true, current: current.figures, prior: prior.figures },
  ];
  const slices: Slice[] = parts.map((p) => ({
    ...p,
    deltas: deltasBetween(p.current, p.prior, rules),
    effects: {},
  }));
  const effects: SliceSplit["effects"] = {};
  for (const figure of Object.keys(RATES) as RateFigure[]) {
    const pick = RATES[figure];
    if (pick(whole.current).trials === 0 || pick(whole.prior).trials === 0) continue;
    const split = shiftShare(
      parts.map((p) => ({ current: pick(p.current), prior: pick(p.prior) })),
    );
    effects[figure] = { ratePp: split.ratePp, mixPp: split.mixPp };
    split.parts.forEach((part, i) => {
      const slice = slices[i];
      if (slice) slice.effects[figure] = part;
    });
  }
  return { ok: true, split: { dimension, partition: true, slices, effects } };
}

/** Tag slices: overlapping, so each is shown on its own, with its own deltas and no shares. */
export function splitTags(declared: readonly FetchedSlice[], rules: ChangeRules): SliceSplit {
  return {
    dimension: "tags",
    partition: false,
    slices: declared.map((s) => ({
      ...s,
      other: false,
      deltas: deltasBetween(s.current, s.prior, rules),
      effects: {},
    })),
    effects: {},
  };
}
