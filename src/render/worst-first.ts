import type { AvailableProject } from "../report/types.js";
import type { DigestNews } from "./digest-news.js";

/** How the project lists are ordered, in words for the reader. */
export const WORST_FIRST_LABEL = "needs attention first";

/**
 * Projects that need attention first, so a list cut short keeps them: in the order the news
 * names their first bad news (silent, alert firing, then the worst change of any figure the
 * digest colours, counts included), then the rest by highest flaky rate, then lowest run pass
 * rate; projects without data last; ties by name, then id, the same order on every run.
 */
export function worstFirst(
  projects: readonly AvailableProject[],
  news: DigestNews,
): AvailableProject[] {
  const firstBad = new Map<string, number>();
  news.lines.forEach((line, i) => {
    if (line.tone === "bad" && line.projectId !== null && !firstBad.has(line.projectId))
      firstBad.set(line.projectId, i);
  });
  const rank = (p: AvailableProject) => firstBad.get(p.projectId) ?? Number.POSITIVE_INFINITY;
  return [...projects].sort(
    (a, b) =>
      Number(b.silent) - Number(a.silent) ||
      ascending(rank(a), rank(b)) ||
      descending(a.current.flakyRate, b.current.flakyRate) ||
      descending(negate(a.current.runPassRate), negate(b.current.runPassRate)) ||
      byText(a.name, b.name) ||
      byText(a.projectId, b.projectId),
  );
}

function ascending(a: number, b: number): number {
  return a === b ? 0 : a < b ? -1 : 1;
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
