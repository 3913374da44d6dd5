import type { AvailableProject, Mover, RateDelta } from "./types.js";

/** How many movers a digest headline shows. */
export const MAX_MOVERS = 5;

/** Flaky rate worsens upwards, run pass rate downwards. */
const WORSE_SIGN = { flakyRate: 1, runPassRate: -1 } as const;

/**
 * Projects whose flaky rate rose or run pass rate fell significantly, worst first (by pp), at
 * most five; a project appears at most once per figure. Noise (not significant, or under
 * min_change_pp) never makes the list.
 */
export function topMovers(projects: readonly AvailableProject[]): Mover[] {
  const movers: Mover[] = [];
  for (const project of projects) {
    for (const figure of ["flakyRate", "runPassRate"] as const) {
      const delta: RateDelta = project.deltas[figure];
      const current = project.current[figure];
      const prior = project.prior?.[figure];
      // News only, as the digest colours it: significant and at least min_change_pp.
      if (delta.kind !== "change" || !delta.significant || !delta.large) continue;
      if (current === null || prior === null || prior === undefined) continue;
      const worsePp = delta.pp * WORSE_SIGN[figure];
      if (worsePp <= 0) continue;
      movers.push({
        projectId: project.projectId,
        name: project.name,
        figure,
        current,
        prior,
        pp: delta.pp,
        worsePp,
      });
    }
  }
  // Equal changes (up to float noise: 99%−96% is not exactly 6%−3%) are ordered by name and
  // figure, so the headline is the same on every run.
  return movers
    .sort(
      (a, b) =>
        (Math.abs(b.worsePp - a.worsePp) > 1e-9 ? b.worsePp - a.worsePp : 0) ||
        byText(a.name, b.name) ||
        byText(a.projectId, b.projectId) ||
        byText(a.figure, b.figure),
    )
    .slice(0, MAX_MOVERS);
}

// Code-unit order, not the locale's: the same order on every machine.
function byText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
