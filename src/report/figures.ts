import type { RunCounts, TestCounts } from "../insights/types.js";
import type { Figures } from "./types.js";

/** A rate as a fraction; null when there is nothing to divide by (no data is not 0%). */
function rate(part: number, whole: number): number | null {
  return whole > 0 ? part / whole : null;
}

/** The figures of one span from the API's counts. Rates are fractions, null without a denominator. */
export function figuresFromCounts(runs: RunCounts, tests: TestCounts): Figures {
  const runTotal = runs.passed + runs.failed;
  const testTotal = tests.passed + tests.failed + tests.skipped + tests.timedOut;
  const duration = runs.meanDurationMs;
  return {
    runs: runTotal,
    runsPassed: runs.passed,
    runsFailed: runs.failed,
    runPassRate: rate(runs.passed, runTotal),
    meanRunDurationMs:
      runTotal > 0 && duration !== null && Number.isFinite(duration) ? duration : null,
    tests: testTotal,
    testsPassed: tests.passed,
    testsFailed: tests.failed,
    testsSkipped: tests.skipped,
    testsFlaky: tests.flaky,
    testsTimedOut: tests.timedOut,
    testPassRate: rate(tests.passed, testTotal),
    flakyRate: rate(tests.flaky, testTotal),
  };
}

/** Figures of a span with no data at all: zero counts, null rates. */
export function emptyFigures(): Figures {
  return figuresFromCounts(
    { passed: 0, failed: 0, meanDurationMs: null },
    { passed: 0, failed: 0, skipped: 0, flaky: 0, timedOut: 0 },
  );
}

/**
 * Figures of several spans or projects together: counts are summed and rates recomputed from
 * the sums, never averaged (99% of 1000 runs and 10% of 10 runs is 98.1%, not 54.5%). The mean
 * duration is weighted by runs, over the parts whose duration is known.
 */
export function sumFigures(list: readonly Figures[]): Figures {
  let durationWeight = 0;
  let durationSum = 0;
  for (const f of list) {
    if (f.meanRunDurationMs !== null && f.runs > 0) {
      durationWeight += f.runs;
      durationSum += f.meanRunDurationMs * f.runs;
    }
  }
  const total = (pick: (f: Figures) => number) => list.reduce((sum, f) => sum + pick(f), 0);
  return figuresFromCounts(
    {
      passed: total((f) => f.runsPassed),
      failed: total((f) => f.runsFailed),
      meanDurationMs: durationWeight > 0 ? durationSum / durationWeight : null,
    },
    {
      passed: total((f) => f.testsPassed),
      failed: total((f) => f.testsFailed),
      skipped: total((f) => f.testsSkipped),
      flaky: total((f) => f.testsFlaky),
      timedOut: total((f) => f.testsTimedOut),
    },
  );
}
