/** |z| at or above this is significant at 95%, two-sided. */
export const Z_95 = 1.959964;

/** A count of successes out of trials, e.g. flaky results out of all test results. */
export interface Proportion {
  hits: number;
  trials: number;
}

export interface ProportionTest {
  z: number;
  /** Two-sided p-value. */
  pValue: number;
  significant: boolean;
}

/**
 * Pooled two-proportion z-test of `current` against `prior`: is the change in rate more than
 * the chance variation of samples this size? Both need trials > 0. When the pooled rate is 0
 * or 1 both rates are equal, the standard error is 0, and the answer is "no change" (z = 0,
 * p = 1) rather than 0/0.
 */
export function twoProportionTest(current: Proportion, prior: Proportion): ProportionTest {
  const p1 = current.hits / current.trials;
  const p2 = prior.hits / prior.trials;
  const pooled = (current.hits + prior.hits) / (current.trials + prior.trials);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / current.trials + 1 / prior.trials));
  if (!(se > 0) || !Number.isFinite(se)) return { z: 0, pValue: 1, significant: false };
  const z = (p1 - p2) / se;
  return {
    z,
    pValue: Math.min(1, erfc(Math.abs(z) / Math.SQRT2)),
    significant: Math.abs(z) >= Z_95,
  };
}

/**
 * Complementary error function (Numerical Recipes' Chebyshev fit, relative error < 1.2e-7),
 * enough for p-values shown to people and far better than needed at the 5% boundary.
 */
export function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const poly =
    -1.26551223 +
    t *
      (1.00002368 +
        t *
          (0.37409196 +
            t *
              (0.09678418 +
                t *
                  (-0.18628806 +
                    t *
                      (0.27886807 +
                        t *
                          (-1.13520398 +
                            t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))));
  const r = t * Math.exp(-z * z + poly);
  return x >= 0 ? r : 2 - r;
}
