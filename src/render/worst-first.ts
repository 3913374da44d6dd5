import type { AvailableProject } from "../report/types.js";

/** How the project lists are ordered, in words for the reader. */
export const WORST_FIRST_LABEL = "highest flaky rate first";

/**
 * Projects worst first, so a list cut short keeps the ones that need attention: highest flaky
 * rate, then lowest run pass rate; projects without data last; ties by name, then id, so the
 * order is the same on every run.
 */
export function worstFirst(projects: readonly AvailableProject[]): AvailableProject[] {
  return [...projects].sort(
    (a, b) =>
      descending(a.current.flakyRate, b.current.flakyRate) ||
      descending(negate(a.current.runPassRate), negate(b.current.runPassRate)) ||
      byText(a.name, b.name) ||
      byText(a.projectId, b.projectId),
  );
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
