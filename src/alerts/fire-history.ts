import { daysBetween } from "../periods/calendar-date.js";
import type { Period } from "../periods/types.js";
import { lowIsBad } from "./alert-metrics.js";
import type { AlertMetric, EarlierFire, Evaluation } from "./types.js";

// What a fire's end says of it ("resolved after 3 days (peak 9.5% on Nov 11)") comes from the
// evaluations the ledger recorded while it fired: the one that fired (its thread key) and
// every later one, the evaluation being made now included.

/** A fire as the ledger's evaluations remember it, for the words of its end. */
export interface FireHistory {
  /** The window of the evaluation that fired. */
  firedIn: Period;
  /** The worst value while it fired, and the window it was measured in. */
  peak: { value: number; period: Period } | null;
}

/** A recorded evaluation as the history reads it: its key, window and each scope's value. */
export interface PastEvaluation {
  key: string;
  period: Period;
  results: readonly { scope: string; value: number | null }[];
}

/** The fires an evaluation speaks of, as thread keys: the ones to read the history of. */
export function firesOf(evaluation: Evaluation): string[] {
  const keys = [
    ...evaluation.transitions.map((t) => t.threadKey),
    ...evaluation.results.map((r) => r.state.threadKey),
  ];
  return [...new Set(keys.filter((k): k is string => k !== null))];
}

/**
 * For each scope of a fire, the window it fired in and its worst value since (highest, or
 * lowest for a metric that is bad when low), from `past` (oldest first, this one included).
 */
export function fireHistory(
  metric: AlertMetric,
  evaluation: Evaluation,
  past: readonly PastEvaluation[],
): Record<string, FireHistory> {
  const worse = (a: number, b: number) => (lowIsBad(metric) ? a < b : a > b);
  const scopes = [
    ...evaluation.transitions.map((t) => ({ scope: t.scope, threadKey: t.threadKey })),
    ...evaluation.results.map((r) => ({ scope: r.scope, threadKey: r.state.threadKey })),
  ];
  const history: Record<string, FireHistory> = {};
  for (const { scope, threadKey } of scopes) {
    const root = past.find((e) => e.key === threadKey);
    if (!root || history[scope]) continue;
    let peak: FireHistory["peak"] = null;
    for (const e of past) {
      if (e.period.start < root.period.start) continue;
      const value = e.results.find((r) => r.scope === scope)?.value ?? null;
      if (value !== null && (peak === null || worse(value, peak.value)))
        peak = { value, period: e.period };
    }
    history[scope] = { firedIn: root.period, peak };
  }
  return history;
}

/** Days after a resolution within which a new fire of the scope is a regression. */
const REGRESSION_DAYS = 7;

/** A recorded evaluation as the regression check reads it: each scope's transition. */
export interface RecordedTransitions {
  key: string;
  period: Period;
  results: readonly { scope: string; transition: string | null }[];
}

/**
 * Per scope, its last fire when that fire has resolved and no fire came after, and the
 * resolution's window ended at most 7 days before `windowEnd` (the window evaluated now), from
 * the alert's recorded evaluations in any order. Windows, not clocks: a re-run says the same.
 */
export function recentResolutions(
  past: readonly RecordedTransitions[],
  windowEnd: string,
): Map<string, EarlierFire> {
  const ordered = [...past].sort((a, b) => (a.period.end < b.period.end ? -1 : 1));
  const fired = new Map<string, RecordedTransitions>();
  const found = new Map<string, EarlierFire>();
  for (const e of ordered) {
    if (e.period.end >= windowEnd) continue;
    for (const r of e.results) {
      if (r.transition === "fired") {
        fired.set(r.scope, e);
        found.delete(r.scope);
      }
      const fire = fired.get(r.scope);
      if (r.transition === "resolved" && fire)
        found.set(r.scope, { fireKey: fire.key, firedIn: fire.period, resolvedIn: e.period });
    }
  }
  for (const [scope, earlier] of found)
    if (daysBetween(earlier.resolvedIn.end, windowEnd) > REGRESSION_DAYS) found.delete(scope);
  return found;
}
