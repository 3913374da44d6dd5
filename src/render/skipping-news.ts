import { twoProportionTest } from "../report/two-proportion-test.js";
import type { AvailableProject, Figures, RateFigure, Report } from "../report/types.js";
import { deltaView } from "./delta-view.js";
import { shownChange } from "./shown-change.js";

// A pass rate can improve because the suite runs less of itself: failing tests skipped pass
// their runs. When a scope's pass rate is better (the delta view's verdict) while its skipped
// share of test results rose significantly (z-test at 95%) by at least `min_change_pp`, the
// digest says so as bad news rather than letting the improvement stand alone.

const PASS_RATES = [
  ["runPassRate", "run pass rate"],
  ["testPassRate", "test pass rate"],
] as const;

/** A news line of its own kind: bad news, about one scope (null: the team). */
export interface SkippingLine {
  kind: "worse";
  projectId: string | null;
  name: string;
  what: string;
  short: string;
  tone: "bad";
}

/** One bad-news line per scope (team first) whose pass rate improved because it skips more. */
export function skippingNews(report: Report, minChangePp = 0.5): SkippingLine[] {
  const scopes = [
    { projectId: null, name: "Team", ...report.total, silent: false },
    ...report.projects.filter((p): p is AvailableProject => p.status === "ok"),
  ];
  return scopes.flatMap((scope) => {
    const { current, prior } = scope;
    if (scope.silent || !prior) return [];
    const skips = skippedRise(current, prior, minChangePp);
    if (!skips) return [];
    for (const [figure, words] of PASS_RATES) {
      const delta = scope.deltas[figure];
      const before = prior[figure];
      const after = current[figure];
      if (delta.kind !== "change" || before === null || after === null) continue;
      if (deltaView(figure, delta).verdict !== "better") continue;
      return [
        {
          kind: "worse" as const,
          projectId: scope.projectId,
          name: scope.name,
          what: `: passes more because it skips more \u2014 ${words} ${changeWords(figure, before, after)} while the skipped share went ${skips}`,
          short: `${scope.name} passes more because it skips more`,
          tone: "bad" as const,
        },
      ];
    }
    return [];
  });
}

/** "2.0% → 7.0% (+5.0 pp)" when the skipped share rose significantly and enough; else null. */
function skippedRise(current: Figures, prior: Figures, minChangePp: number): string | null {
  if (current.tests === 0 || prior.tests === 0) return null;
  const now = { hits: current.testsSkipped, trials: current.tests };
  const before = { hits: prior.testsSkipped, trials: prior.tests };
  const pp = 100 * (now.hits / now.trials - before.hits / before.trials);
  if (pp + 1e-9 < minChangePp || !twoProportionTest(now, before).significant) return null;
  // A share of test results, printed as a rate is: the change adds up as printed.
  return changeWords("flakyRate", before.hits / before.trials, now.hits / now.trials);
}

/** "75.0% → 95.0% (+20.0 pp)", its change the difference of the figures as printed. */
function changeWords(figure: RateFigure, before: number, after: number): string {
  const shown = shownChange(figure, before, after);
  return `${shown.before} \u2192 ${shown.after} (${shown.delta})`;
}
