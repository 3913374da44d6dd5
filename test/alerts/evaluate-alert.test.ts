import { describe, expect, it } from "vitest";
import { evaluateAlert } from "../../src/alerts/evaluate-alert.js";
import type { AlertRule } from "../../src/alerts/types.js";
import { counts, rule, runSequence, type Step } from "./alert-builders.js";

// Value sequences → states and notifications, one evaluation per step, in the style of an
// alerting engine's state tests. Values are flaky percents over 1,000 results unless counts
// are given; warn 3, critical 5, clear 2.5.

const small = counts(6, 40); // 6% of 40 results: the raw value is critical, the sample is tiny
const large = counts(6, 20_000); // 6% of 20,000 results: certainly past 5%

const cases: [string, Partial<AlertRule>, Step[], string[], string[]][] = [
  [
    "a clean crossing fires and resolves",
    {},
    [1, 4, 2],
    ["ok", "warn", "ok"],
    ["-", "fired", "resolved"],
  ],
  [
    "a wobble inside the hysteresis band sends nothing",
    {},
    [4, 2.8, 3.2, 2.7, 2],
    ["warn", "warn", "warn", "warn", "ok"],
    ["fired", "-", "-", "-", "resolved"],
  ],
  [
    "escalation and de-escalation",
    {},
    [4, 6, 4, 2.8, 1],
    ["warn", "critical", "warn", "warn", "ok"],
    ["fired", "escalated", "de-escalated", "-", "resolved"],
  ],
  ["firing straight to critical", {}, [7, 1], ["critical", "ok"], ["fired", "resolved"]],
  [
    "for: 2 waits for a second breach",
    { forEvaluations: 2 },
    [4, 1, 4, 4, 4],
    ["pending", "ok", "pending", "warn", "warn"],
    ["-", "-", "-", "fired", "-"],
  ],
  [
    "fewer results than min_tests give no verdict",
    { minTests: 500 },
    [counts(10, 100), 1],
    ["no_data", "ok"],
    ["-", "-"],
  ],
  [
    "on_no_data keep holds a firing alert through a gap",
    { onNoData: "keep" },
    [4, null, counts(10, 50), 4, 1],
    ["warn", "warn", "warn", "warn", "ok"],
    ["fired", "-", "-", "-", "resolved"],
  ],
  [
    "on_no_data resolve ends a firing alert at the gap",
    { onNoData: "resolve" },
    [4, null, 4],
    ["warn", "no_data", "warn"],
    ["fired", "resolved", "fired"],
  ],
  [
    "on_no_data fire raises a warning at the gap, and keeps a critical critical",
    { onNoData: "fire" },
    [1, null, 7, null, 1],
    ["ok", "warn", "critical", "critical", "ok"],
    ["-", "fired", "escalated", "-", "resolved"],
  ],
  [
    "repeat_every reminds while firing, and not more often",
    { repeatEveryMs: 2 * 86_400_000 },
    [4, 4, 4, 4, 1],
    ["warn", "warn", "warn", "warn", "ok"],
    ["fired", "-", "reminder", "-", "resolved"],
  ],
  [
    "confidence: a small sample with a critical raw value does not fire",
    // min_tests off, so that it is the interval alone that holds it back
    { confidence: 0.95, minTests: 0 },
    [small, small],
    ["ok", "ok"],
    ["-", "-"],
  ],
  [
    "confidence: a large sample at the same rate does",
    { confidence: 0.95 },
    [large],
    ["critical"],
    ["fired"],
  ],
  [
    "confidence: a firing alert resolves only when the interval clears clear_at",
    { confidence: 0.95 },
    [large, counts(2, 300), counts(2, 20_000)],
    ["critical", "warn", "ok"],
    ["fired", "de-escalated", "resolved"],
  ],
  [
    "a runs alert with warn_at 0 fires when the suite stops, whatever min_tests says",
    { metric: "runs", warnAt: 0, criticalAt: 0, clearAt: 1, minTests: 200 },
    [counts(1, 1_000, 12), counts(1, 0, 0), counts(1, 0, 0), counts(1, 500, 3)],
    ["ok", "critical", "critical", "ok"],
    ["-", "fired", "-", "resolved"],
  ],
];

describe("evaluateAlert over a sequence", () => {
  it.each(cases)("%s", (_name, overrides, steps, states, sent) => {
    const result = runSequence(rule(overrides), steps);
    expect(result.states).toEqual(states);
    expect(result.sent).toEqual(sent);
  });

  it("mentions only when something fires or escalates", () => {
    const result = runSequence(rule({ repeatEveryMs: 86_400_000 }), [4, 6, 6, 4, 1]);
    expect(result.sent).toEqual(["fired", "escalated", "reminder", "de-escalated", "resolved"]);
    expect(result.mentions).toEqual([true, true, false, false, false]);
  });

  it("groups one evaluation's transitions: fired first, then escalated, de-escalated, resolved", () => {
    const now = "2026-11-02T09:00:00.000Z";
    const firing = (scope: string, state: "warn" | "critical") => ({
      scope,
      state,
      since: now,
      breaches: 1,
      lastValue: 4,
      lastNotifiedAt: now,
      firedAt: "2026-11-01T09:00:00.000Z",
      threadKey: "t.alert.a.2026-10-31",
    });
    const window = (scope: string, percent: number) => ({
      scope,
      name: scope,
      current: counts(percent),
      prior: null,
      daily: [],
    });
    const evaluation = evaluateAlert({
      rule: rule(),
      windows: [
        window("resolves", 1),
        window("eases", 4),
        window("worsens", 6),
        window("fires", 4),
      ],
      states: new Map([
        ["resolves", firing("resolves", "warn")],
        ["eases", firing("eases", "critical")],
        ["worsens", firing("worsens", "warn")],
      ]),
      now,
      key: "t.alert.a.2026-11-01",
    });
    expect(evaluation.transitions.map((t) => [t.scope, t.kind, t.threadKey])).toEqual([
      ["fires", "fired", null],
      ["worsens", "escalated", "t.alert.a.2026-10-31"],
      ["eases", "de-escalated", "t.alert.a.2026-10-31"],
      ["resolves", "resolved", "t.alert.a.2026-10-31"],
    ]);
    const fired = evaluation.results.find((r) => r.scope === "fires");
    expect(fired?.state).toMatchObject({
      state: "warn",
      firedAt: now,
      threadKey: "t.alert.a.2026-11-01",
    });
  });

  it("treats a bad-when-low rate in its own direction", () => {
    const passRate = rule({ metric: "test_pass_rate", warnAt: 95, criticalAt: 90, clearAt: 97 });
    const pass = (percent: number) => ({ ...counts(0), testsPassed: percent * 10 });
    expect(runSequence(passRate, [pass(99), pass(94), pass(89), pass(96), pass(98)]).sent).toEqual([
      "-",
      "fired",
      "escalated",
      "de-escalated",
      "resolved",
    ]);
  });
});

describe("an alert's first evaluation", () => {
  const first = (percent: number) =>
    evaluateAlert({
      rule: rule(),
      windows: [{ scope: "p1", name: "Web", current: counts(percent), prior: null, daily: [] }],
      states: new Map(),
      now: "2026-11-22T08:00:00.000Z",
      key: "t.alert.a.1",
    });

  it("is new, not a move from no_data, and fires at the level it saw", () => {
    expect(first(8).transitions.map((t) => [t.kind, t.from, t.to])).toEqual([
      ["fired", "new", "critical"],
    ]);
  });

  it("that is ok has nothing to send, and records the state it saw", () => {
    const evaluation = first(1);
    expect(evaluation.transitions).toEqual([]);
    expect(evaluation.results[0]?.state.state).toBe("ok");
  });
});
