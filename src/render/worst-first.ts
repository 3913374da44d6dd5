import type { AvailableProject } from "../report/types.js";
import { deltaView } from "./delta-view.js";

/** How the project lists are ordered, in words for the reader. */
export const WORST_FIRST_LABEL = "needs attention first";

/**
 * Projects that need attention first, so a list cut short keeps them: silent projects, then
 * the largest significant worsening of run pass rate or flaky rate (a −22 pp drop is never
 * below the cut just because its flaky rate is low), then highest flaky rate, then lowest run
 * pass rate; projects without data last; ties by name, then id, the same order on every run.
 */
export function worstFirst(projects: readonly AvailableProject[]): AvailableProject[] {
  return [...projects].sort(
    (a, b) =>
      Number(b.silent) - Number(a.silent) ||
      worsening(b) - worsening(a) ||
      descending(a.current.flakyRate, b.current.flakyRate) ||
      descending(negate(a.current.runPassRate), negate(b.current.runPassRate)) ||
      byText(a.name, b.name) ||
      byText(a.projectId, b.projectId),
  );
}

/** The project's largest worsening in pp that is news (the delta view's `worse`), else 0. */
export function worsening(project: AvailableProject): number {
  let worst = 0;
  for (const figure of ["runPassRate", "flakyRate"] as const) {
    const delta = project.deltas[figure];
    if (delta.kind !== "change" || deltaView(figure, delta).verdict !== "worse") continue;
    // Rounded to the tenth shown, so float noise never reorders equal-looking drops.
    worst = Math.max(worst, Math.round(Math.abs(delta.pp) * 10) / 10);
  }
  return worst;
}

function negate(value: number | null): number | null {
  return value === null ? null : -value;
}

// A missing value sorts after every present one.
function descending(a: number | null, b: number | null): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  return b - a;
}

function byText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
