import { describe, expect, it } from "vitest";
import { deltasBetween } from "../../src/report/deltas.js";
import { figuresFromCounts } from "../../src/report/figures.js";
import { topMovers } from "../../src/report/top-movers.js";
import type { AvailableProject } from "../../src/report/types.js";
import { runs, tests } from "./builders.js";

/** An available project with the given run pass and flaky counts, current vs prior. */
function moved(
  id: string,
  rates: { runs?: [number, number]; flaky?: [number, number] },
  trials = 1000,
): AvailableProject {
  const [runNow, runBefore] = rates.runs ?? [trials, trials];
  const [flakyNow, flakyBefore] = rates.flaky ?? [0, 0];
  const current = figuresFromCounts(
    runs(runNow, trials - runNow),
    tests({ passed: trials, flaky: flakyNow }),
  );
  const prior = figuresFromCounts(
    runs(runBefore, trials - runBefore),
    tests({ passed: trials, flaky: flakyBefore }),
  );
  return {
    projectId: id,
    name: id.toUpperCase(),
    filters: { branch: null, author: null, tags: [] },
    status: "ok",
    silent: false,
    current,
    prior,
    priorNote: null,
    deltas: deltasBetween(current, prior),
    daily: [],
    missingDays: { current: [], prior: [] },
  };
}

describe("topMovers", () => {
  it("ranks significant worsenings worst first, by pp, across both figures", () => {
    const movers = topMovers([
      moved("a", { flaky: [60, 30] }), // flaky +3.0 pp
      moved("b", { runs: [900, 950] }), // run pass −5.0 pp
      moved("c", { flaky: [100, 20], runs: [960, 990] }), // flaky +8.0 pp and run pass −3.0 pp
    ]);
    expect(movers.map((m) => [m.projectId, m.figure, Number(m.worsePp.toFixed(1))])).toEqual([
      ["c", "flakyRate", 8],
      ["b", "runPassRate", 5],
      ["a", "flakyRate", 3],
      ["c", "runPassRate", 3],
    ]);
    const first = movers[0];
    expect(first).toMatchObject({ name: "C", current: 0.1, prior: 0.02 });
    expect(first?.pp).toBeCloseTo(8, 10);
    expect(movers[1]?.pp).toBeCloseTo(-5, 10);
  });

  it("leaves out noise and improvements", () => {
    const movers = topMovers([
      moved("noise", { flaky: [12, 8] }, 400), // +1 pp, z = 0.91
      moved("better", { flaky: [10, 60], runs: [990, 900] }),
      moved("same", {}),
    ]);
    expect(movers).toEqual([]);
  });

  it("keeps at most five", () => {
    const projects = [10, 20, 30, 40, 50, 60, 70].map((extra, i) =>
      moved(`p${i}`, { flaky: [20 + extra, 20] }),
    );
    const movers = topMovers(projects);
    expect(movers.map((m) => m.projectId)).toEqual(["p6", "p5", "p4", "p3", "p2"]);
  });

  it("ignores projects without a prior", () => {
    const p = moved("a", { flaky: [60, 30] });
    const withoutPrior: AvailableProject = {
      ...p,
      prior: null,
      priorNote: "prior period not available: insights go back to 2026-08-25",
      deltas: deltasBetween(p.current, { unavailable: "x" }),
    };
    expect(topMovers([withoutPrior])).toEqual([]);
  });
});

describe("topMovers and min_change_pp", () => {
  it("leaves out a significant rise smaller than min_change_pp: the digest shows it as ≈", () => {
    const current = figuresFromCounts(runs(100, 0), tests({ passed: 100_000, flaky: 6_200 }));
    const prior = figuresFromCounts(runs(100, 0), tests({ passed: 100_000, flaky: 5_800 }));
    const project = {
      projectId: "p",
      name: "P",
      filters: { branch: null, author: null, tags: [] },
      status: "ok" as const,
      silent: false,
      current,
      prior,
      priorNote: null,
      deltas: deltasBetween(current, prior),
      daily: [],
      missingDays: { current: [], prior: [] },
    };
    expect(project.deltas.flakyRate).toMatchObject({ significant: true, large: false });
    expect(topMovers([project])).toEqual([]);
  });
});
