// The alert engine's vocabulary. Its own plain types (no config, no report imports), so the
// evaluation stays a pure function of numbers and last states, testable from a table.

import type { AlertMetric } from "./alert-metrics.js";

export type { AlertMetric } from "./alert-metrics.js";

/** pending: breaching, `for` not met yet; no_data: too few results, or not fetched. */
export type AlertStateName = "ok" | "pending" | "warn" | "critical" | "no_data";

/**
 * Where a transition starts: a state, or `new` on the alert's first evaluation of a scope, which
 * says what it saw rather than a move from missing data.
 */
export type TransitionFrom = AlertStateName | "new";

export type TransitionKind = "fired" | "escalated" | "de-escalated" | "resolved" | "reminder";

/**
 * What relative thresholds are offsets from: the median of the 4 earlier windows (the same
 * weekdays 1–4 weeks back for a window of up to 7 days, else the 4 windows just before), by
 * the metric's own unit (`points`: pp for rates, minutes, runs) or by a percent of it.
 */
export interface AlertBaseline {
  baseline: "median_of_4_weeks";
  by: "points" | "percent";
}

/**
 * An alert's rule, in the metric's unit (percent for rates, a count for runs, minutes for the
 * mean run duration). With `against`, each threshold is a signed offset from the scope's normal.
 */
export interface AlertRule {
  name: string;
  metric: AlertMetric;
  warnAt: number;
  criticalAt: number;
  clearAt: number;
  /** null: the thresholds are absolute values. */
  against: AlertBaseline | null;
  minTests: number;
  /** null compares the raw value. */
  confidence: number | null;
  forEvaluations: number;
  repeatEveryMs: number | null;
  onNoData: "keep" | "resolve" | "fire";
}

/** The counts an alert reads from a window (a report's Figures fit). */
export interface WindowCounts {
  runs: number;
  runsPassed: number;
  runsFailed: number;
  tests: number;
  testsPassed: number;
  testsFailed: number;
  testsFlaky: number;
  testsSkipped: number;
  testsTimedOut: number;
  /** The summed duration of the runs whose duration is known, and how many they are. */
  runDurationMs: number;
  timedRuns: number;
}

/** One scope's figures for the evaluated window: a project, or the team total ("team"). */
export interface ScopeWindow {
  scope: string;
  /** Shown to people. */
  name: string;
  /** null when the scope could not be fetched. */
  current: WindowCounts | null;
  prior: WindowCounts | null;
  /** The window's days, oldest first, for the sparkline. */
  daily: WindowCounts[];
  /** Why there are no figures: "not found" (the API does not know the project), or "could not be fetched". */
  missing?: string;
  /**
   * For an alert `against` a baseline: the counts of its 4 earlier windows, newest first;
   * null for a window that could not be fetched.
   */
  baseline?: readonly (WindowCounts | null)[];
}

/** A scope's normal: the median of its baseline windows that held `min_tests` (3 or 4). */
export interface Normal {
  value: number;
  windows: number;
}

/** A measured value with what stands behind it. */
export interface Sample {
  /** In the metric's unit; null without data. */
  value: number | null;
  /** The Wilson interval in the metric's unit, when confidence is on and the metric a rate. */
  interval: { low: number; high: number } | null;
  /** Test results behind a rate (runs behind the runs count). */
  size: number;
  /** The prior window's value, for the change. */
  prior: number | null;
  /** Per day of the window; null for a day without data. */
  daily: (number | null)[];
  /**
   * For an alert `against` a baseline: the normal its thresholds are offsets from; null when
   * too few of the baseline's windows held data (no verdict). Absent for absolute thresholds.
   */
  normal?: Normal | null;
}

/** What the ledger keeps per team, alert and scope between evaluations. */
export interface ScopeState {
  scope: string;
  state: AlertStateName;
  /** ISO instant the scope entered `state`. */
  since: string;
  /** Consecutive breaching evaluations (for `for`). */
  breaches: number;
  lastValue: number | null;
  /** ISO instant of the last message about this scope (for repeat_every). */
  lastNotifiedAt: string | null;
  /** ISO instant it started firing; null when not firing. */
  firedAt: string | null;
  /** The evaluation key whose message announced the fire: later messages go in its thread. */
  threadKey: string | null;
}

/** A scope's earlier fire, resolved not long ago: the key of its first message, and its windows. */
export interface EarlierFire {
  fireKey: string;
  firedIn: { start: string; end: string };
  resolvedIn: { start: string; end: string };
}

export interface Transition {
  kind: TransitionKind;
  scope: string;
  name: string;
  from: TransitionFrom;
  to: AlertStateName;
  sample: Sample;
  /** The threshold the value was compared with for this transition. */
  threshold: number;
  /** For resolved: when it had fired. */
  firedAt: string | null;
  /** The fire's message, when the transition belongs in its thread. */
  threadKey: string | null;
  /** Why the scope has no value, when it could not be fetched (see `ScopeWindow.missing`). */
  missing?: string;
  /**
   * For a reminder posted because a silence of the scope ended: who ended it (a Slack user id
   * or `cli:<name>`), or null when it ran out.
   */
  afterSilence?: { endedBy: string | null };
  /** For a fire: the scope's earlier fire, when it resolved within 7 days before (a regression). */
  regressed?: EarlierFire;
}

/** One scope's outcome of an evaluation. */
export interface ScopeResult {
  scope: string;
  name: string;
  sample: Sample;
  /** What the numbers said this time, before on_no_data and `for`. */
  verdict: "ok" | "warn" | "critical" | "between" | "no_data";
  state: ScopeState;
  /** Why the scope has no value, when it could not be fetched (see `ScopeWindow.missing`). */
  missing?: string;
}

export interface Evaluation {
  results: ScopeResult[];
  /** Ordered: fired, escalated, de-escalated, resolved, reminder. */
  transitions: Transition[];
  /** Someone should be pinged: something fired or escalated. */
  mention: boolean;
}
