import { describe, expect, it } from "vitest";
import { createEmulatorProjects } from "../../src/insights/emulator/emulator-projects.js";
import type { EmulatorRun } from "../../src/insights/emulator/start-emulator.js";

// The emulator's projects for alerts against a project's own normal: "Data pipeline" (index 9)
// keeps a steady 0.8% flaky rate and spikes yesterday by less than any fixed threshold would catch;
// "Partner portal" (index 10) runs slower day by day over the last 10 days.

const TODAY = "2026-11-16";
const projects = createEmulatorProjects("demo", 11, () => TODAY);

/** The runs of the UTC day `back` days before TODAY. */
function day(project: number, back: number): EmulatorRun[] {
  const start = new Date(Date.parse(`${TODAY}T00:00:00Z`) - back * 86_400_000);
  const end = new Date(start.getTime() + 86_400_000);
  return projects[project]?.runsBetween(start.toISOString(), end.toISOString()) ?? [];
}

const results = (r: EmulatorRun) =>
  r.tests.passed + r.tests.failed + r.tests.skipped + r.tests.timedOut;
const flaky = (runs: EmulatorRun[]) =>
  runs.reduce((s, r) => s + r.tests.flaky, 0) / runs.reduce((s, r) => s + results(r), 0);
const meanMinutes = (runs: EmulatorRun[]) =>
  runs.reduce((s, r) => s + r.durationMs, 0) / runs.length / 60_000;

describe("the emulator's baseline projects", () => {
  it("Data pipeline: a steady normal near 0.8%, yesterday 1.6 pp above it and under 3%", () => {
    expect(projects[9]?.name).toBe("Data pipeline");
    for (const back of [8, 15, 22, 29]) expect(flaky(day(9, back))).toBeCloseTo(0.008, 2);
    const spike = flaky(day(9, 1));
    expect(spike).toBeGreaterThan(0.02);
    expect(spike).toBeLessThan(0.03);
  });

  it("Partner portal: its mean run duration creeps up over the last 10 days", () => {
    expect(projects[10]?.name).toBe("Partner portal");
    const before = meanMinutes(day(10, 29));
    expect(meanMinutes(day(10, 15)) / before).toBeCloseTo(1, 0);
    expect(meanMinutes(day(10, 1)) / before).toBeGreaterThan(1.4);
  });
});
