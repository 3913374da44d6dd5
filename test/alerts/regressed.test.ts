import { describe, expect, it } from "vitest";
import { evaluateAlert } from "../../src/alerts/evaluate-alert.js";
import { recentResolutions } from "../../src/alerts/fire-history.js";
import type { ScopeWindow } from "../../src/alerts/types.js";
import { transitionSentence } from "../../src/render/alert/alert-view.js";
import { ALERT_NOW, alertInput } from "../render/alert-input.js";
import { counts, rule } from "./alert-builders.js";

// A scope that fires again within 7 days of resolving has regressed: its fire says so and
// names the earlier one, which the ledger's recorded evaluations remember.

const day = (d: string) => ({ start: d, end: d });
const recorded = (key: string, date: string, transition: string | null) => ({
  key,
  period: day(date),
  results: [{ scope: "p1", transition }],
});

describe("recentResolutions", () => {
  const past = [
    recorded("e.10", "2026-11-10", "fired"),
    recorded("e.11", "2026-11-11", null),
    recorded("e.12", "2026-11-12", "resolved"),
  ];

  it("finds the scope's last fire that resolved within 7 days of the window", () => {
    expect(recentResolutions(past, "2026-11-19").get("p1")).toEqual({
      fireKey: "e.10",
      firedIn: day("2026-11-10"),
      resolvedIn: day("2026-11-12"),
    });
  });

  it("forgets a resolution more than 7 days old", () => {
    expect(recentResolutions(past, "2026-11-20").has("p1")).toBe(false);
  });

  it("has nothing for a scope that fired again since, or never resolved", () => {
    const again = [...past, recorded("e.14", "2026-11-14", "fired")];
    expect(recentResolutions(again, "2026-11-15").has("p1")).toBe(false);
    expect(recentResolutions(past.slice(0, 2), "2026-11-12").has("p1")).toBe(false);
  });
});

describe("a re-fire within 7 days of resolving", () => {
  const window: ScopeWindow = {
    scope: "p1",
    name: "Web",
    current: counts(4, 5_000),
    prior: null,
    daily: [],
  };
  const earlier = { fireKey: "e.10", firedIn: day("2026-11-10"), resolvedIn: day("2026-11-12") };

  it("is marked regressed, with the earlier fire", () => {
    const evaluation = evaluateAlert({
      rule: rule(),
      windows: [window],
      states: new Map(),
      now: ALERT_NOW,
      key: "k",
      resolvedRecently: new Map([["p1", earlier]]),
    });
    expect(evaluation.transitions[0]).toMatchObject({ kind: "fired", regressed: earlier });
  });

  it("a first fire is not", () => {
    const evaluation = evaluateAlert({
      rule: rule(),
      windows: [window],
      states: new Map(),
      now: ALERT_NOW,
      key: "k",
    });
    expect(evaluation.transitions[0]?.regressed).toBeUndefined();
  });

  it("says regressed, and when the earlier fire began and ended", () => {
    const input = alertInput([window]);
    const [t] = input.transitions;
    if (!t) throw new Error("no transition");
    const sentence = transitionSentence(input, { ...t, from: "ok", regressed: earlier }, ALERT_NOW);
    expect(sentence).toBe(
      "Web flaky rate 4.0% — above warn 3% — regressed: it fired Nov 10 and resolved Nov 12",
    );
  });
});
