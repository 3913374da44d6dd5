import { describe, expect, it } from "vitest";
import { createEmulatorProjects } from "../../src/insights/emulator/emulator-projects.js";
import {
  type EmulatorRun,
  emulatorProjectIds,
} from "../../src/insights/emulator/start-emulator.js";

const TODAY = "2026-11-16";
const projectsFor = (seed: string, count = 6, today = TODAY) =>
  createEmulatorProjects(seed, count, () => today);
const results = (r: EmulatorRun) =>
  r.tests.passed + r.tests.failed + r.tests.skipped + r.tests.timedOut;
const flakyRate = (runs: EmulatorRun[]) =>
  runs.reduce((s, r) => s + r.tests.flaky, 0) / runs.reduce((s, r) => s + results(r), 0);

describe("project ids", () => {
  it("are the documented ones for the default seed and 6 projects", () => {
    expect(emulatorProjectIds()).toEqual([
      "dlucmsz",
      "azenvfq",
      "mojrmve",
      "moqvofb",
      "ielbwnf",
      "wvecaab",
    ]);
    expect(emulatorProjectIds("demo", 6)).toEqual(projectsFor("demo").map((p) => p.id));
  });

  it("are 7 lowercase letters, unique even for 500 projects, and depend on the seed", () => {
    const ids = emulatorProjectIds("bench", 500);
    expect(new Set(ids).size).toBe(500);
    expect(ids.every((id) => /^[a-z]{7}$/.test(id))).toBe(true);
    expect(emulatorProjectIds("other", 6)).not.toEqual(emulatorProjectIds("demo", 6));
    expect(emulatorProjectIds("bench", 6)).toEqual(ids.slice(0, 6));
  });
});

describe("generated runs", () => {
  const projects = projectsFor("demo");
  const busy = projects[0]?.runs ?? [];

  it("are the same for the same seed and today, and differ for another seed", () => {
    // Compared as JSON: vitest's deep equality takes most of a second on ~11k runs.
    const again = JSON.stringify(projectsFor("demo").map((p) => p.runs));
    expect(again === JSON.stringify(projects.map((p) => p.runs))).toBe(true);
    expect(projectsFor("demo-2")[0]?.runs).not.toEqual(busy);
  });

  it("keep each day's runs when today moves (each day has its own seeded source)", () => {
    const tomorrow = projectsFor("demo", 6, "2026-11-17")[0]?.runs ?? [];
    const shared = (runs: EmulatorRun[]) =>
      runs.filter((r) => r.startedAt.startsWith("2026-10-01"));
    expect(shared(tomorrow)).toEqual(shared(busy));
  });

  it("cover the 100 UTC days before today, sorted, with one project without runs", () => {
    for (const { runs } of projects) {
      const times = runs.map((r) => r.startedAt);
      expect(times).toEqual([...times].sort());
      expect(
        times.filter((t) => t < "2026-08-08T00:00:00.000Z" || t >= "2026-11-16T00:00:00.000Z"),
      ).toEqual([]);
    }
    expect(projects.filter((p) => p.runs.length === 0).map((p) => p.name)).toEqual([
      "Legacy admin (archived)",
    ]);
    expect(new Set(busy.map((r) => r.startedAt.slice(0, 10))).size).toBeGreaterThanOrEqual(95);
  });

  it("hold consistent test results: 50–400 a run, flaky within passed, failed status iff a failure or timeout", () => {
    const all = projects.flatMap((p) => p.runs);
    const broken = all.filter(
      (run) =>
        results(run) < 50 ||
        results(run) > 400 ||
        run.tests.flaky > run.tests.passed ||
        run.status !== (run.tests.failed + run.tests.timedOut > 0 ? "failed" : "passed") ||
        !(run.durationMs > 0),
    );
    expect(all.length).toBeGreaterThan(1000);
    expect(broken).toEqual([]);
  });

  it("run more on weekdays than at weekends", () => {
    const perDay = new Map<string, number>();
    for (const r of busy)
      perDay.set(r.startedAt.slice(0, 10), (perDay.get(r.startedAt.slice(0, 10)) ?? 0) + 1);
    const weekend = (d: string) => [0, 6].includes(new Date(`${d}T00:00:00Z`).getUTCDay());
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const days = [...perDay];
    const weekdayMean = mean(days.filter(([d]) => !weekend(d)).map(([, n]) => n));
    expect(weekdayMean).toBeGreaterThanOrEqual(5);
    expect(weekdayMean).toBeLessThanOrEqual(45);
    expect(mean(days.filter(([d]) => weekend(d)).map(([, n]) => n))).toBeLessThan(weekdayMean / 2);
  });

  it("spread across the whole UTC day", () => {
    const hours = new Set(busy.map((r) => Number(r.startedAt.slice(11, 13))));
    expect(hours.size).toBe(24);
  });

  it("include bad days where most runs fail", () => {
    const byDay = new Map<string, EmulatorRun[]>();
    for (const r of busy)
      byDay.set(r.startedAt.slice(0, 10), [...(byDay.get(r.startedAt.slice(0, 10)) ?? []), r]);
    const bad = [...byDay.values()].filter(
      (runs) => runs.filter((r) => r.status === "failed").length > runs.length / 3,
    );
    expect(bad.length).toBeGreaterThanOrEqual(1);
    expect(bad.length).toBeLessThan(15);
  });

  it("give one project a flaky rate that rises over the 100 days", () => {
    const rising = projects[1]?.runs ?? [];
    const first = rising.filter((r) => r.startedAt < "2026-09-07");
    const last = rising.filter((r) => r.startedAt >= "2026-10-17");
    expect(flakyRate(last)).toBeGreaterThan(3 * flakyRate(first));
    expect(flakyRate(last)).toBeGreaterThan(0.05);
    const steady = busy;
    expect(flakyRate(steady.filter((r) => r.startedAt >= "2026-10-17"))).toBeLessThan(0.02);
  });

  it("mix branches, authors and tags so filters have something to select", () => {
    const share = (pred: (r: EmulatorRun) => boolean) => busy.filter(pred).length / busy.length;
    expect(share((r) => r.branch === "main")).toBeGreaterThan(0.6);
    expect(new Set(busy.map((r) => r.branch)).size).toBeGreaterThan(2);
    expect(new Set(busy.map((r) => r.author)).size).toBeGreaterThan(2);
    for (const tag of ["e2e", "smoke", "nightly", "regression"])
      expect(share((r) => r.tags.includes(tag))).toBeGreaterThan(0);
  });

  it("for a window are the history's runs in it, generated for the UTC days it touches only", () => {
    const [project] = projectsFor("demo", 1);
    const all = project?.runs ?? [];
    const windows = [
      ["2026-11-10T00:00:00.000Z", "2026-11-11T00:00:00.000Z"],
      ["2026-11-09T23:00:00.000Z", "2026-11-12T05:30:00.000Z"],
      ["2026-08-01T00:00:00.000Z", "2026-08-12T00:00:00.000Z"], // partly before the history
      ["2026-11-15T10:00:00.000Z", "2026-11-17T00:00:00.000Z"], // up to today
    ] as const;
    for (const [from, to] of windows) {
      const inWindow = (r: EmulatorRun) => r.startedAt >= from && r.startedAt < to;
      expect(project?.runsBetween(from, to).filter(inWindow)).toEqual(all.filter(inWindow));
    }
    const oneDay = project?.runsBetween("2026-11-10T00:00:00.000Z", "2026-11-11T00:00:00.000Z");
    expect(oneDay?.length).toBeGreaterThan(0);
    expect(oneDay?.every((r) => r.startedAt.startsWith("2026-11-10"))).toBe(true);
  });

  it("are generated only when read, so 500 projects cost nothing up front", () => {
    let reads = 0;
    const many = createEmulatorProjects("bench", 500, () => {
      reads++;
      return TODAY;
    });
    expect(many).toHaveLength(500);
    expect(reads).toBe(0);
    expect(many[499]?.runs.length).toBeGreaterThan(0);
    expect(reads).toBe(1);
  });
});
