import { describe, expect, it } from "vitest";
import { evaluateAlert } from "../../src/alerts/evaluate-alert.js";
import type { AlertRule, ScopeState, ScopeWindow, WindowCounts } from "../../src/alerts/types.js";
import {
  type AlertMessageInput,
  ruleText,
  transitionSentence,
} from "../../src/render/alert/alert-view.js";
import { counts, rule } from "../alerts/alert-builders.js";

// What people read of an alert against a project's own normal: both numbers, the difference
// as shown, and which windows the normal is the median of; and the creep metrics in their units.

const NOW = "2026-11-20T08:00:00.000Z";
// Thursday Nov 19, 2026: a daily alert's window.
const PERIOD = { start: "2026-11-19", end: "2026-11-19" };

function message(
  r: AlertRule,
  window: Omit<ScopeWindow, "scope" | "name" | "prior" | "daily">,
  states = new Map<string, ScopeState>(),
): AlertMessageInput {
  const evaluation = evaluateAlert({
    rule: r,
    windows: [{ scope: "p1", name: "Search API", prior: null, daily: [], ...window }],
    states,
    now: NOW,
    key: "t.alert.flaky-regression.2026-11-19",
  });
  return {
    key: "t.alert.flaky-regression.2026-11-19",
    team: { name: "t", title: "Search", timezone: "Europe/Berlin" },
    alert: r,
    period: PERIOD,
    transitions: evaluation.transitions,
    mention: null,
    mentionDue: evaluation.mention,
  };
}

const relative = rule({
  name: "flaky-regression",
  warnAt: 1,
  criticalAt: 3,
  clearAt: 0.5,
  against: { baseline: "median_of_4_weeks", by: "points" },
});
const steady = [counts(0.8), counts(0.7), counts(0.9), counts(0.8)];

describe("an alert against the project's normal, in words", () => {
  it("says both numbers and the windows of the normal", () => {
    const input = message(relative, { current: counts(2.4), baseline: steady });
    const [t] = input.transitions;
    if (!t) throw new Error("no transition");
    expect(transitionSentence(input, t, NOW)).toBe(
      "Search API flaky rate 2.4% — 1.6 pp above its normal 0.8% (median of the last 4 Thursdays)",
    );
  });

  it("says how many of the windows held data when one did not", () => {
    const input = message(relative, {
      current: counts(2.4),
      baseline: [counts(0.8), null, counts(0.7), counts(0.9)],
    });
    const [t] = input.transitions;
    if (!t) throw new Error("no transition");
    expect(transitionSentence(input, t, NOW)).toContain(
      "its normal 0.8% (median of 3 of the last 4 Thursdays)",
    );
  });

  it("a resolution names the clearing level as the normal plus clear_at", () => {
    const firing: ScopeState = {
      scope: "p1",
      state: "warn",
      since: "2026-11-19T08:00:00.000Z",
      breaches: 1,
      lastValue: 2.4,
      lastNotifiedAt: "2026-11-19T08:00:00.000Z",
      firedAt: "2026-11-19T08:00:00.000Z",
      threadKey: "t.alert.flaky-regression.2026-11-18",
    };
    const input = message(
      relative,
      { current: counts(1), baseline: steady },
      new Map([["p1", firing]]),
    );
    const [t] = input.transitions;
    if (!t) throw new Error("no transition");
    expect(transitionSentence(input, t, NOW)).toBe(
      "Search API flaky rate back under 1.3% (its normal 0.8% + 0.5 pp) — resolved after 1 day",
    );
  });

  it("the rule reads as offsets from the normal", () => {
    const input = message(relative, { current: counts(2.4), baseline: steady });
    expect(ruleText(input)).toBe(
      "flaky rate: warn ≥ normal + 1 pp, critical ≥ normal + 3 pp, clears < normal + 0.5 pp (median of the last 4 Thursdays) · raw value",
    );
  });

  it("a thin baseline counted as warn says why there is no normal", () => {
    const input = message(
      { ...relative, onNoData: "fire" },
      { current: counts(2.4), baseline: [counts(0.8), null, null, counts(0.8, 10)] },
    );
    const [t] = input.transitions;
    if (!t) throw new Error("no transition");
    expect(transitionSentence(input, t, NOW)).toBe(
      "Search API flaky rate 2.4%: no normal (fewer than 3 of the last 4 Thursdays with 200 results) — counted as warn",
    );
  });
});

describe("the creep metrics, in words", () => {
  // Checked before and calm: a fire, not a first check (which says what it saw).
  const calm = new Map<string, ScopeState>([
    [
      "p1",
      {
        scope: "p1",
        state: "ok",
        since: "2026-11-01T08:00:00.000Z",
        breaches: 0,
        lastValue: null,
        lastNotifiedAt: null,
        firedAt: null,
        threadKey: null,
      },
    ],
  ]);
  const lasting = (minutes: number): WindowCounts => ({
    ...counts(0),
    runDurationMs: 20 * minutes * 60_000,
    timedRuns: 20,
  });

  it("a mean run duration over an absolute threshold in minutes", () => {
    const r = rule({ metric: "mean_run_duration", warnAt: 15, criticalAt: 20, clearAt: 14 });
    const input = message(r, { current: lasting(16.5) }, calm);
    const [t] = input.transitions;
    if (!t) throw new Error("no transition");
    expect(transitionSentence(input, t, NOW)).toBe(
      "Search API mean run duration 16m 30s — above warn 15m 00s",
    );
  });

  it("a mean run duration against its normal, as a percent of it", () => {
    const r = rule({
      metric: "mean_run_duration",
      warnAt: 20,
      criticalAt: 50,
      clearAt: 10,
      against: { baseline: "median_of_4_weeks", by: "percent" },
    });
    const input = message(r, {
      current: lasting(12.5),
      baseline: [lasting(10), lasting(10), lasting(11), lasting(9)],
    });
    const [t] = input.transitions;
    if (!t) throw new Error("no transition");
    expect(transitionSentence(input, t, NOW)).toBe(
      "Search API mean run duration 12m 30s — 25% above its normal 10m 00s (median of the last 4 Thursdays)",
    );
  });

  it("a skipped share is a percent of test results", () => {
    const r = rule({ metric: "skipped_share", warnAt: 10, criticalAt: 20, clearAt: 8 });
    const input = message(r, { current: { ...counts(0), testsSkipped: 125 } }, calm);
    const [t] = input.transitions;
    if (!t) throw new Error("no transition");
    expect(transitionSentence(input, t, NOW)).toBe(
      "Search API skipped share 12.5% — above warn 10%",
    );
  });

  it("a timed-out share is a percent of test results", () => {
    const r = rule({ metric: "timed_out_share", warnAt: 2, criticalAt: 4, clearAt: 1 });
    const input = message(r, { current: { ...counts(0), testsTimedOut: 50 } }, calm);
    const [t] = input.transitions;
    if (!t) throw new Error("no transition");
    expect(transitionSentence(input, t, NOW)).toBe(
      "Search API timed-out share 5.0% — above critical 4%",
    );
  });
});
