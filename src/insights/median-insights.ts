import type { Period } from "../periods/types.js";
import type { FetchOutcome, ProjectInsights, RunCounts, TestCounts } from "./types.js";

// `compare_to: median_of_4_weeks`: the baseline is one span's worth of counts, each count the
// median of that count over the 4 spans, so one odd day or week among them does not move it.
// Rates are then computed from those counts (never a median or mean of percentages), and the
// significance tests see the baseline as one span's observations, not four spans' worth.

/** The median of numbers (the mean of the middle two for an even count); null for none. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle] as number;
  return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] as number) + upper) / 2;
}

/** Whole counts: a median between two counts is rounded to the nearer (half up). */
function medianCount(values: readonly number[]): number {
  return Math.round(median(values) ?? 0);
}

/** The baseline's insights: each count the median of the spans' counts; no day buckets. */
export function medianInsights(spans: readonly ProjectInsights[], prior: Period): ProjectInsights {
  const first = spans[0];
  if (!first) throw new RangeError("a median needs at least one span");
  const runs = (pick: (r: RunCounts) => number) =>
    medianCount(spans.map((s) => pick(s.overall.runs)));
  const tests = (pick: (t: TestCounts) => number) =>
    medianCount(spans.map((s) => pick(s.overall.tests)));
  const passed = runs((r) => r.passed);
  const failed = runs((r) => r.failed);
  const durations = spans.flatMap((s) => s.overall.runs.meanDurationMs ?? []);
  const meanDuration = median(durations);
  return {
    projectId: first.projectId,
    startDate: prior.start,
    endDate: prior.end,
    timezone: first.timezone,
    days: [],
    overall: {
      runs: {
        passed,
        failed,
        meanDurationMs:
          passed + failed > 0 && meanDuration !== null ? Math.round(meanDuration) : null,
      },
      tests: {
        passed: tests((t) => t.passed),
        failed: tests((t) => t.failed),
        skipped: tests((t) => t.skipped),
        flaky: tests((t) => t.flaky),
        timedOut: tests((t) => t.timedOut),
      },
    },
  };
}

/**
 * The baseline outcome from the spans' outcomes: the median of the spans fetched whole (else of
 * those fetched at all); the first failure when none could be fetched.
 */
export function medianOutcome(outcomes: readonly FetchOutcome[], prior: Period): FetchOutcome {
  const fetched = outcomes.flatMap((o) => (o.ok ? [o.insights] : []));
  const whole = fetched.filter((insights) => (insights.missingDays ?? []).length === 0);
  const spans = whole.length > 0 ? whole : fetched;
  if (spans.length > 0) return { ok: true, insights: medianInsights(spans, prior) };
  const failure = outcomes.find((o) => !o.ok);
  if (!failure) throw new RangeError("a median needs at least one span");
  return failure;
}
