import { evaluateAlert } from "../../src/alerts/evaluate-alert.js";
import type {
  AlertRule,
  ScopeState,
  ScopeWindow,
  TransitionKind,
  WindowCounts,
} from "../../src/alerts/types.js";

/** A flaky-rate rule with the recommended thresholds, raw values unless a test turns confidence on. */
export function rule(overrides: Partial<AlertRule> = {}): AlertRule {
  return {
    name: "flaky-rate",
    metric: "flaky_rate",
    warnAt: 3,
    criticalAt: 5,
    clearAt: 2.5,
    minTests: 200,
    confidence: null,
    forEvaluations: 1,
    repeatEveryMs: null,
    onNoData: "keep",
    against: null,
    ...overrides,
  };
}

/**
 * Counts with `tests` results of which `percent`% were flaky (and failed, and passed runs),
 * none skipped or timed out, each run lasting 10 minutes.
 */
export function counts(percent: number, tests = 1_000, runs = 20): WindowCounts {
  const flaky = Math.round((percent / 100) * tests);
  return {
    runs,
    runsPassed: runs,
    runsFailed: 0,
    tests,
    testsPassed: tests,
    testsFailed: flaky,
    testsFlaky: flaky,
    testsSkipped: 0,
    testsTimedOut: 0,
    runDurationMs: runs * 600_000,
    timedRuns: runs,
  };
}

/** A step of a sequence: a flaky percent, explicit counts, or null for "could not be fetched". */
export type Step = number | WindowCounts | null;

const DAY = 86_400_000;

/** Runs the steps one evaluation a day for one scope; returns each step's state and transition. */
export function runSequence(
  r: AlertRule,
  steps: readonly Step[],
): { states: string[]; sent: (TransitionKind | "-")[]; mentions: boolean[] } {
  let states = new Map<string, ScopeState>();
  const out = {
    states: [] as string[],
    sent: [] as (TransitionKind | "-")[],
    mentions: [] as boolean[],
  };
  for (const [i, step] of steps.entries()) {
    const current = step === null ? null : typeof step === "number" ? counts(step) : step;
    const window: ScopeWindow = {
      scope: "p1",
      name: "Web",
      current,
      prior: null,
      daily: current ? [current] : [],
    };
    const now = new Date(Date.UTC(2026, 10, 1) + i * DAY).toISOString();
    const evaluation = evaluateAlert({
      rule: r,
      windows: [window],
      states,
      now,
      key: `t.alert.a.${i}`,
    });
    const result = evaluation.results[0];
    if (!result) throw new Error("no result");
    states = new Map([[result.scope, result.state]]);
    out.states.push(result.state.state);
    out.sent.push(evaluation.transitions[0]?.kind ?? "-");
    out.mentions.push(evaluation.mention);
  }
  return out;
}
