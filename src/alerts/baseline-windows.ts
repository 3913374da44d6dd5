import { addDays, periodDays } from "../periods/calendar-date.js";
import { medianBaseline } from "../periods/periods-for-fire.js";
import type { Period } from "../periods/types.js";
import { countsOf, type FiguresLike, sumCounts, TEAM_SCOPE } from "./scope-windows.js";
import type { ScopeWindow, WindowCounts } from "./types.js";

// The 4 earlier windows a relative alert's normal is taken from, and each scope's counts in
// them: a project's own, and the team's as the sum of the projects the window itself could
// count (a project missing from one baseline window leaves the team's that window empty,
// rather than making it look quiet).

/** Windows a normal is the median of. */
const BASELINE_WINDOWS = 4;

/**
 * The baseline of a window, newest first: the same span 1–4 weeks back for a window of up to
 * 7 days (a daily alert's last 4 same weekdays), else the 4 equal spans just before it.
 */
export function baselineSpans(window: Period): Period[] {
  const weekly = medianBaseline("median_of_4_weeks", window);
  if (weekly) return weekly;
  const days = periodDays(window);
  return Array.from({ length: BASELINE_WINDOWS }, (_, i) => ({
    start: addDays(window.start, -days * (i + 1)),
    end: addDays(window.start, -days * i - 1),
  }));
}

/**
 * The windows with their baselines, from each baseline span's figures by project id (null
 * where the project could not be fetched for that span). The team's sums the projects its
 * total counts now (`teamProjects`).
 */
export function withBaselines(
  windows: readonly ScopeWindow[],
  spans: readonly ReadonlyMap<string, FiguresLike | null>[],
  teamProjects: readonly string[],
): ScopeWindow[] {
  return windows.map((w) => {
    const baseline = spans.map((span): WindowCounts | null => {
      if (w.scope !== TEAM_SCOPE) {
        const figures = span.get(w.scope);
        return figures ? countsOf(figures) : null;
      }
      const parts = teamProjects.map((id) => span.get(id) ?? null);
      if (parts.length === 0 || parts.some((f) => f === null)) return null;
      return sumCounts(parts.map((f) => countsOf(f as FiguresLike)));
    });
    return { ...w, baseline };
  });
}
