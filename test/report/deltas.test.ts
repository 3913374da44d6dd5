import { describe, expect, it } from "vitest";
import { amountDelta, deltasBetween, rateDelta } from "../../src/report/deltas.js";
import { emptyFigures, figuresFromCounts } from "../../src/report/figures.js";
import { runs, tests } from "./builders.js";

describe("rateDelta", () => {
  it("is in percentage points and significant only when the z-test says so", () => {
    const big = rateDelta({ hits: 60, trials: 1000 }, { hits: 30, trials: 1000 });
    expect(big).toMatchObject({ kind: "change", significant: true });
    if (big.kind === "change") expect(big.pp).toBeCloseTo(3, 10);

    // The same +1 pp on small samples is noise.
    const noise = rateDelta({ hits: 12, trials: 400 }, { hits: 8, trials: 400 });
    expect(noise).toMatchObject({ kind: "change", significant: false });
    if (noise.kind === "change") {
      expect(noise.pp).toBeCloseTo(1, 10);
      expect(noise.pValue).toBeCloseTo(0.365, 3);
    }
  });

  it("is large only from min_change_pp on: +0.4 pp on a million results is certain and no news", () => {
    const rules = { minChangePp: 0.5, currentDays: 1, priorDays: 1 };
    const small = rateDelta({ hits: 54_000, trials: 1e6 }, { hits: 50_000, trials: 1e6 }, rules);
    expect(small).toMatchObject({ significant: true, large: false });
    const enough = rateDelta({ hits: 55_000, trials: 1e6 }, { hits: 50_000, trials: 1e6 }, rules);
    expect(enough).toMatchObject({ significant: true, large: true });
    const stricter = rateDelta(
      { hits: 55_000, trials: 1e6 },
      { hits: 50_000, trials: 1e6 },
      {
        ...rules,
        minChangePp: 1,
      },
    );
    expect(stricter).toMatchObject({ large: false });
  });

  it.each([
    ["no current data", { hits: 0, trials: 0 }, { hits: 5, trials: 10 }, { kind: "none" }],
    ["no prior data", { hits: 5, trials: 10 }, { hits: 0, trials: 0 }, { kind: "new" }],
    ["neither", { hits: 0, trials: 0 }, { hits: 0, trials: 0 }, { kind: "none" }],
    [
      "prior unavailable",
      { hits: 5, trials: 10 },
      { unavailable: "prior period not available: insights go back to 2026-08-25" },
      { kind: "unavailable", reason: "prior period not available: insights go back to 2026-08-25" },
    ],
    [
      "prior unavailable and no current data",
      { hits: 0, trials: 0 },
      { unavailable: "whatever" },
      { kind: "none" },
    ],
  ])("%s", (_name, current, prior, expected) => {
    expect(rateDelta(current, prior)).toEqual(expected);
  });
});

describe("amountDelta", () => {
  const change = (diff: number, pct: number | null, significant: boolean, large: boolean) => ({
    kind: "change",
    diff,
    pct,
    significant,
    large,
  });
  it.each([
    ["a duration 8% shorter: too small to matter", 92, 100, {}, change(-8, -0.08, true, false)],
    ["a duration 50% longer", 150, 100, {}, change(50, 0.5, true, true)],
    ["from zero: a difference, no percent", 5, 0, {}, change(5, null, true, true)],
    ["zero to zero", 0, 0, {}, change(0, null, true, false)],
    // 20 → 17 runs is −15%, large, but a wobble Poisson noise explains (p = 0.74)
    ["a count that wobbles by chance", 17, 20, { count: true }, change(-3, -0.15, false, true)],
    ["a count that fell for real", 1700, 2000, { count: true }, change(-300, -0.15, true, true)],
    // 20,000 → 19,000 is certain at this size and still only −5%: no news
    [
      "a certain but small count change",
      19_000,
      20_000,
      { count: true },
      change(-1000, -0.05, true, false),
    ],
    ["no prior data", 5, null, {}, { kind: "new" }],
    ["no current data", null, 5, {}, { kind: "none" }],
    [
      "prior unavailable",
      5,
      { unavailable: "n/a because" },
      {},
      { kind: "unavailable", reason: "n/a because" },
    ],
  ] as const)("%s", (_name, current, prior, options, expected) => {
    expect(amountDelta(current, prior, options)).toEqual(expected);
  });

  it("compares counts per day when the spans differ in length", () => {
    // 31 runs in 31 days against 30 in 30: the same daily rate, not +3%.
    const rules = { minChangePp: 0.5, currentDays: 31, priorDays: 30 };
    const d = amountDelta(62, 30, { count: true, rules });
    expect(d).toMatchObject({ significant: true, large: true });
    const same = amountDelta(31, 30, { count: true, rules });
    expect(same).toMatchObject({ significant: false, large: false });
  });
});

describe("deltasBetween", () => {
  it("treats a zero count as data when its period had results, and as no data otherwise", () => {
    const current = figuresFromCounts(runs(10, 0), tests({ passed: 500, failed: 5 }));
    const priorNoFailures = figuresFromCounts(runs(10, 0), tests({ passed: 500 }));
    const d = deltasBetween(current, priorNoFailures);
    expect(d.testsFailed).toMatchObject({ kind: "change", diff: 5, pct: null });
    expect(d.testsFlaky).toMatchObject({ kind: "change", diff: 0, pct: null, large: false });

    const priorEmpty = emptyFigures();
    const fresh = deltasBetween(current, priorEmpty);
    expect(fresh.testsFailed).toEqual({ kind: "new" });
    expect(fresh.runs).toEqual({ kind: "new" });
    expect(fresh.runPassRate).toEqual({ kind: "new" });
  });

  it("gives durations in percent of the prior", () => {
    const d = deltasBetween(
      figuresFromCounts(runs(10, 0, 660_000), tests({ passed: 1 })),
      figuresFromCounts(runs(10, 0, 600_000), tests({ passed: 1 })),
    );
    expect(d.meanRunDurationMs).toEqual({
      kind: "change",
      diff: 60_000,
      pct: 0.1,
      significant: true,
      large: true,
    });
  });

  it("marks every figure unavailable when the prior is, and none when the current is empty", () => {
    const reason = "prior period not available: insights go back to 2026-08-25";
    const d = deltasBetween(figuresFromCounts(runs(1, 1), tests({ passed: 2 })), {
      unavailable: reason,
    });
    for (const delta of Object.values(d)) expect(delta).toEqual({ kind: "unavailable", reason });

    const empty = deltasBetween(
      emptyFigures(),
      figuresFromCounts(runs(1, 1), tests({ passed: 2 })),
    );
    for (const delta of Object.values(empty)) expect(delta).toEqual({ kind: "none" });
  });
});
