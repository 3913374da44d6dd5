import { describe, expect, it } from "vitest";
import { fireHistory } from "../../src/alerts/fire-history.js";
import type { Evaluation, Transition } from "../../src/alerts/types.js";

// What a resolution says of its fire comes from the evaluations recorded while it fired.

const day = (d: string) => ({ start: d, end: d });
const resolving = (scope: string, threadKey: string | null): Evaluation => ({
  results: [],
  transitions: [{ kind: "resolved", scope, threadKey } as Transition],
  mention: false,
});
const past = (values: [key: string, date: string, value: number | null][]) =>
  values.map(([key, date, value]) => ({
    key,
    period: day(date),
    results: [{ scope: "p1", value }],
  }));

describe("fireHistory", () => {
  const recorded = past([
    ["e.15", "2026-11-15", 9.9], // before the fire: not its peak
    ["e.16", "2026-11-16", 4.1], // the fire
    ["e.17", "2026-11-17", 9.5],
    ["e.18", "2026-11-18", null],
    ["e.19", "2026-11-19", 1.0], // now
  ]);

  it("gives the window the fire began in and its highest value since, for a metric bad when high", () => {
    expect(fireHistory("flaky_rate", resolving("p1", "e.16"), recorded)).toEqual({
      p1: { firedIn: day("2026-11-16"), peak: { value: 9.5, period: day("2026-11-17") } },
    });
  });

  it("takes the lowest value for a metric bad when low", () => {
    expect(fireHistory("run_pass_rate", resolving("p1", "e.16"), recorded).p1?.peak).toEqual({
      value: 1.0,
      period: day("2026-11-19"),
    });
  });

  it("says nothing of a fire the ledger no longer has", () => {
    expect(fireHistory("flaky_rate", resolving("p1", "gone"), recorded)).toEqual({});
    expect(fireHistory("flaky_rate", resolving("p1", null), recorded)).toEqual({});
  });
});
