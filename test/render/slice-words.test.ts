import { describe, expect, it } from "vitest";
import { sliceWords } from "../../src/render/slice-words.js";
import { DEFAULT_RULES } from "../../src/report/deltas.js";
import { figuresFromCounts, sumFigures } from "../../src/report/figures.js";
import { splitPartition } from "../../src/report/slices.js";
import type { Figures, ProjectSlices } from "../../src/report/types.js";

// Issue 37 item 4: the news line says where a change sits, in words.

function flaky(runs: number, tests: number, flakyCount: number): Figures {
  return figuresFromCounts(
    { passed: runs, failed: 0, meanDurationMs: 60_000 },
    { passed: tests, failed: 0, skipped: 0, flaky: flakyCount, timedOut: 0 },
  );
}

function slicesOf(parts: { name: string; prior: Figures; current: Figures }[]): ProjectSlices {
  const whole = {
    prior: sumFigures(parts.map((p) => p.prior)),
    current: sumFigures(parts.map((p) => p.current)),
  };
  const split = splitPartition("branch", whole, parts, DEFAULT_RULES);
  if (!split.ok) throw new Error(split.reason);
  return { splits: [split.split] };
}

describe("where a change sits", () => {
  it("names the branch whose own rate moved, and the declared one that did not", () => {
    const slices = slicesOf([
      { name: "main", prior: flaky(90, 9000, 90), current: flaky(90, 9000, 91) },
      { name: "release-2.3", prior: flaky(10, 1000, 10), current: flaky(10, 1000, 80) },
    ]);
    expect(sliceWords("flakyRate", slices)).toBe(
      " \u2014 on release-2.3 (1.0% \u2192 8.0%); main unchanged",
    );
  });

  it("says the runs moved to a branch that was already flaky when the mix explains the change", () => {
    // Each branch keeps its rate; release-2.3 goes from a tenth of the results to a third.
    const slices = slicesOf([
      { name: "main", prior: flaky(90, 9000, 90), current: flaky(60, 6000, 60) },
      { name: "release-2.3", prior: flaky(10, 1000, 80), current: flaky(30, 3000, 240) },
    ]);
    const effects = slices.splits[0]?.effects.flakyRate;
    expect(effects?.ratePp).toBeCloseTo(0, 9);
    expect(sliceWords("flakyRate", slices)).toMatch(
      /^ \u2014 more runs on release-2\.3, which was already flaky \(mix \+[\d.]+ pp\)$/,
    );
  });

  it("says nothing without slices", () => {
    expect(sliceWords("flakyRate", undefined)).toBe("");
  });
});
