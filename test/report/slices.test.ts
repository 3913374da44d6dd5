import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_RULES } from "../../src/report/deltas.js";
import { figuresFromCounts } from "../../src/report/figures.js";
import { shiftShare, splitPartition, splitTags } from "../../src/report/slices.js";
import type { Figures } from "../../src/report/types.js";

// Issue 37: where a change moved. Branches and authors partition the runs ("other" is the rest);
// a rate change splits by shift-share into a rate effect and a mix effect that add up to it.

interface Counts {
  runsPassed: number;
  runsFailed: number;
  tests: number;
  flaky: number;
}

function figures({ runsPassed, runsFailed, tests, flaky }: Counts): Figures {
  return figuresFromCounts(
    {
      passed: runsPassed,
      failed: runsFailed,
      meanDurationMs: runsPassed + runsFailed ? 1000 : null,
    },
    { passed: tests, failed: 0, skipped: 0, flaky, timedOut: 0 },
  );
}

function sum(list: Counts[]): Counts {
  return list.reduce(
    (a, b) => ({
      runsPassed: a.runsPassed + b.runsPassed,
      runsFailed: a.runsFailed + b.runsFailed,
      tests: a.tests + b.tests,
      flaky: a.flaky + b.flaky,
    }),
    { runsPassed: 0, runsFailed: 0, tests: 0, flaky: 0 },
  );
}

const arbCounts: fc.Arbitrary<Counts> = fc
  .record({
    runsPassed: fc.integer({ min: 0, max: 300 }),
    runsFailed: fc.integer({ min: 0, max: 100 }),
    tests: fc.integer({ min: 0, max: 20_000 }),
    flaky: fc.integer({ min: 0, max: 2_000 }),
  })
  .map((c) => ({ ...c, flaky: Math.min(c.flaky, c.tests) }));

const arbSlice = fc.record({ current: arbCounts, prior: arbCounts });

describe("shift-share", () => {
  it("splits a rate change into a rate effect and a mix effect that add up to it, for random slices", () => {
    fc.assert(
      fc.property(fc.array(arbSlice, { minLength: 1, maxLength: 6 }), (slices) => {
        const parts = slices.map((s) => ({
          current: { hits: s.current.flaky, trials: s.current.tests },
          prior: { hits: s.prior.flaky, trials: s.prior.tests },
        }));
        const current = sum(slices.map((s) => s.current));
        const prior = sum(slices.map((s) => s.prior));
        fc.pre(current.tests > 0 && prior.tests > 0);
        const split = shiftShare(parts);
        const changePp = (current.flaky / current.tests - prior.flaky / prior.tests) * 100;
        expect(split.ratePp + split.mixPp).toBeCloseTo(changePp, 9);
        const byParts = split.parts.reduce((a, p) => a + p.ratePp + p.mixPp, 0);
        expect(byParts).toBeCloseTo(changePp, 9);
      }),
      { numRuns: 500 },
    );
  });

  it("gives a pure mix change no rate effect: each slice keeps its rate, the runs move", () => {
    // main 1% flaky, release 8% flaky in both weeks; release's share of the results triples.
    const split = shiftShare([
      { prior: { hits: 90, trials: 9000 }, current: { hits: 70, trials: 7000 } },
      { prior: { hits: 80, trials: 1000 }, current: { hits: 240, trials: 3000 } },
    ]);
    expect(split.ratePp).toBeCloseTo(0, 12);
    expect(split.mixPp).toBeCloseTo(3.1 - 1.7, 9);
  });

  it("gives a pure rate change no mix effect: the shares stay, one slice's rate moves", () => {
    const split = shiftShare([
      { prior: { hits: 50, trials: 5000 }, current: { hits: 50, trials: 5000 } },
      { prior: { hits: 50, trials: 5000 }, current: { hits: 400, trials: 5000 } },
    ]);
    expect(split.mixPp).toBeCloseTo(0, 12);
    expect(split.ratePp).toBeCloseTo(3.5, 9);
  });
});

describe("a partition's slices", () => {
  const main = {
    current: { runsPassed: 60, runsFailed: 4, tests: 6000, flaky: 60 },
    prior: { runsPassed: 60, runsFailed: 4, tests: 6000, flaky: 60 },
  };
  const release = {
    current: { runsPassed: 30, runsFailed: 6, tests: 3000, flaky: 240 },
    prior: { runsPassed: 30, runsFailed: 6, tests: 3000, flaky: 30 },
  };
  const rest = {
    current: { runsPassed: 10, runsFailed: 0, tests: 1000, flaky: 10 },
    prior: { runsPassed: 10, runsFailed: 0, tests: 1000, flaky: 10 },
  };

  it("puts what no declared slice holds in other, and the counts add up to the unfiltered ones", () => {
    const whole = sum([main.current, release.current, rest.current]);
    const wholePrior = sum([main.prior, release.prior, rest.prior]);
    const result = splitPartition(
      "branch",
      { current: figures(whole), prior: figures(wholePrior) },
      [
        { name: "main", current: figures(main.current), prior: figures(main.prior) },
        { name: "release-2.3", current: figures(release.current), prior: figures(release.prior) },
      ],
      DEFAULT_RULES,
    );
    if (!result.ok) throw new Error(result.reason);
    const other = result.split.slices.at(-1);
    expect(other).toMatchObject({ name: "other", other: true });
    expect(other?.current.testsFlaky).toBe(10);
    expect(other?.current.runs).toBe(10);
    const flakySum = result.split.slices.reduce((a, s) => a + s.current.testsFlaky, 0);
    expect(flakySum).toBe(whole.flaky);
    // Each slice has its own test: release moved, main did not.
    const release23 = result.split.slices.find((s) => s.name === "release-2.3");
    expect(release23?.deltas.flakyRate).toMatchObject({ kind: "change", significant: true });
    const mainSlice = result.split.slices.find((s) => s.name === "main");
    expect(mainSlice?.deltas.flakyRate).toMatchObject({ kind: "change", significant: false });
    const effects = result.split.effects.flakyRate;
    const changePp = (whole.flaky / whole.tests - wholePrior.flaky / wholePrior.tests) * 100;
    expect((effects?.ratePp ?? 0) + (effects?.mixPp ?? 0)).toBeCloseTo(changePp, 9);
  });

  it("refuses a split whose other would be negative, naming the count", () => {
    const whole = sum([main.current]);
    const result = splitPartition(
      "branch",
      { current: figures(whole), prior: figures(whole) },
      [
        { name: "main", current: figures(main.current), prior: figures(main.prior) },
        { name: "release-2.3", current: figures(release.current), prior: figures(release.prior) },
      ],
      DEFAULT_RULES,
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason).toMatch(/other.*negative/);
  });

  it("shows tags as independent slices, with no other and no shares", () => {
    const split = splitTags(
      [{ name: "smoke", current: figures(release.current), prior: figures(release.prior) }],
      DEFAULT_RULES,
    );
    expect(split.slices.map((s) => s.name)).toEqual(["smoke"]);
    expect(split.effects).toEqual({});
    expect(split.partition).toBe(false);
  });
});
