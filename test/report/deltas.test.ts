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
  it.each([
    ["a fall of 8%", 92, 100, { kind: "change", diff: -8, pct: -0.08 }],
    ["a rise of 50%", 150, 100, { kind: "change", diff: 50, pct: 0.5 }],
    ["from zero: a difference, no percent", 5, 0, { kind: "change", diff: 5, pct: null }],
    ["zero to zero", 0, 0, { kind: "change", diff: 0, pct: null }],
    ["no prior data", 5, null, { kind: "new" }],
    ["no current data", null, 5, { kind: "none" }],
    [
      "prior unavailable",
      5,
      { unavailable: "n/a because" },
      { kind: "unavailable", reason: "n/a because" },
    ],
  ] as const)("%s", (_name, current, prior, expected) => {
    expect(amountDelta(current, prior)).toEqual(expected);
  });
});

describe("deltasBetween", () => {
  it("treats a zero count as data when its period had results, and as no data otherwise", () => {
    const current = figuresFromCounts(runs(10, 0), tests({ passed: 500, failed: 5 }));
    const priorNoFailures = figuresFromCounts(runs(10, 0), tests({ passed: 500 }));
    const d = deltasBetween(current, priorNoFailures);
    expect(d.testsFailed).toEqual({ kind: "change", diff: 5, pct: null });
    expect(d.testsFlaky).toEqual({ kind: "change", diff: 0, pct: null });

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
    expect(d.meanRunDurationMs).toEqual({ kind: "change", diff: 60_000, pct: 0.1 });
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
