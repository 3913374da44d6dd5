import { erfc as erfcApprox } from "./two-proportion-test.js";

// Whether a count changed by more than chance: runs, failed and timed-out tests are counts of
// events, so their natural noise is Poisson, and a change of 20 → 17 runs is no news while
// 2000 → 1700 is. The two-proportion test does not apply: a count has no "out of".

/** A count of events over an exposure (days, here), e.g. 17 runs in 1 day. */
export interface PoissonCount {
  count: number;
  exposure: number;
}

export interface PoissonTest {
  /** Two-sided p-value. */
  pValue: number;
  significant: boolean;
}

/** Above this total the exact sum gives way to the normal approximation (error < 1e-3 there). */
const EXACT_UP_TO = 20_000;

/**
 * Two-sample Poisson test at 95%, as R's `poisson.test(c(x1, x2), c(t1, t2))`: conditional on
 * the total n = x1 + x2, x1 is Binomial(n, t1 / (t1 + t2)) when both rates are equal, and the
 * p-value is the exact two-sided binomial one (probabilities no larger than the observed one).
 */
export function poissonTest(current: PoissonCount, prior: PoissonCount): PoissonTest {
  const n = current.count + prior.count;
  if (n === 0) return { pValue: 1, significant: false };
  const p = current.exposure / (current.exposure + prior.exposure);
  const pValue =
    n <= EXACT_UP_TO ? exactBinomialP(current.count, n, p) : normalP(current.count, n, p);
  return { pValue, significant: pValue < 0.05 };
}

/**
 * A side's walk stops once its terms are this far (in log) below the observed one, which the
 * sum always holds: with n ≤ EXACT_UP_TO < e^10 terms left, they add less than e^-50 of it.
 */
const NEGLIGIBLE = 60;

/** How far from the mode (in counts) the observed one must be for its walks to skip the middle. */
const SEARCH_FROM = 64;

function exactBinomialP(x: number, n: number, p: number): number {
  const logP = Math.log(p);
  const logQ = Math.log1p(-p);
  const logPmf = (k: number) =>
    logGamma(n + 1) - logGamma(k + 1) - logGamma(n - k + 1) + k * logP + (n - k) * logQ;
  const observed = logPmf(x);
  // R's relative tolerance, so that ties in probability count on both sides.
  const limit = observed + Math.log1p(1e-7);
  const floor = observed - NEGLIGIBLE;
  const counts = (k: number) => logPmf(k) <= limit;
  // The probabilities fall on either side of the mode, so each side is walked outward, each term
  // from its neighbour, until they no longer count: some tens of terms per standard deviation,
  // not n + 1 of them with three log-gammas each (a digest's tests per project can number in
  // the thousands). Far from the mode, each walk starts where the terms begin to count, found
  // by a search from the observed count and its mirror image: the terms between the mode and
  // there (most of a large significant change's walk) would be stepped over adding nothing.
  // Near it, the search would cost more than the steps it saves.
  const mode = Math.min(n, Math.floor((n + 1) * p));
  const spread = Math.abs(x - mode);
  // A mode that is not a number (exposures that sum to 0) has no middle to skip.
  const skips = Number.isFinite(spread) && spread > SEARCH_FROM;
  let sum = 0;
  const up = skips ? firstTrue((d) => counts(mode + d), spread, n - mode) : 0;
  for (let k = mode + up, lp = logPmf(k); k <= n && lp > floor; k++) {
    if (lp <= limit) sum += Math.exp(lp);
    lp += Math.log((n - k) / (k + 1)) + logP - logQ;
  }
  const down = skips ? firstTrue((d) => counts(mode - 1 - d), spread, mode - 1) : 0;
  for (let k = mode - 1 - down, lp = logPmf(k); k >= 0 && lp > floor; k--) {
    if (lp <= limit) sum += Math.exp(lp);
    lp += Math.log(k / (n - k + 1)) - logP + logQ;
  }
  return Math.min(1, sum);
}

/**
 * The least d in [0, max] for which `holds` is true, or max + 1 when none; `holds` must be
 * false then true as d grows. Searched outward from `guess` in doubling steps, then by halves:
 * a few calls when the guess is near, as the mirror image of a count nearly always is.
 */
function firstTrue(holds: (d: number) => boolean, guess: number, max: number): number {
  if (max < 0) return 0;
  const start = Math.min(Math.max(guess, 0), max);
  // Invariants: `below` is -1 or false; `above` is max + 1 or true.
  let below = -1;
  let above = max + 1;
  if (holds(start)) {
    above = start;
    for (let step = 1; above - step >= 0; step *= 2) {
      if (!holds(above - step)) {
        below = above - step;
        break;
      }
      above -= step;
    }
  } else {
    below = start;
    for (let step = 1; below + step <= max; step *= 2) {
      if (holds(below + step)) {
        above = below + step;
        break;
      }
      below += step;
    }
  }
  while (above - below > 1) {
    const middle = Math.floor((below + above) / 2);
    if (holds(middle)) above = middle;
    else below = middle;
  }
  return above;
}

function normalP(x: number, n: number, p: number): number {
  const z = (Math.abs(x - n * p) - 0.5) / Math.sqrt(n * p * (1 - p));
  return Math.min(1, erfcApprox(Math.max(0, z) / Math.SQRT2));
}

// Lanczos approximation (g = 7, n = 9), accurate to ~1e-15 for the positive arguments used here.
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
  -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
  1.5056327351493116e-7,
];

function logGamma(z: number): number {
  if (z < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * z)) - logGamma(1 - z);
  const x = z - 1;
  let a = LANCZOS[0] ?? 1;
  const t = x + 7.5;
  for (let i = 1; i < 9; i++) a += (LANCZOS[i] ?? 0) / (x + i);
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(a);
}
