import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { datesIn } from "../../src/periods/calendar-date.js";
import { buildReport, type ReportProjectInput } from "../../src/report/build-report.js";
import { emptyFigures } from "../../src/report/figures.js";
import type { AvailableProject, Report } from "../../src/report/types.js";
import { failed, insights, numbersIn, ok, project, runs, tests, totals, WEEK } from "./builders.js";

function report(
  projects: ReportProjectInput[],
  extra: Partial<Parameters<typeof buildReport>[0]> = {},
) {
  return buildReport({
    team: { name: "checkout", title: "Checkout squad", timezone: "Europe/Berlin" },
    digest: "weekly",
    periods: WEEK,
    generatedAt: "2026-11-16T08:00:00.000Z",
    dashboardUrl: null,
    projects,
    ...extra,
  });
}

function available(r: Report, id: string): AvailableProject {
  const found = r.projects.find((p) => p.projectId === id);
  if (found?.status !== "ok") throw new Error(`project ${id} is not available`);
  return found;
}

const LOOKBACK_MESSAGE =
  "insights are available only for the most recent 3 months — use a date range starting on or after 2026-08-25";

describe("buildReport", () => {
  it("computes the team total from pooled counts, not the mean of project rates", () => {
    const r = report([
      project("a", {
        current: ok(totals(WEEK.current, runs(990, 10, 60_000), tests({ passed: 990, flaky: 10 }))),
        prior: ok(totals(WEEK.prior, runs(980, 20, 60_000), tests({ passed: 990, flaky: 10 }))),
      }),
      project("b", {
        current: ok(
          totals(WEEK.current, runs(1, 9, 600_000), tests({ passed: 5, failed: 5, flaky: 5 })),
        ),
        prior: ok(
          totals(WEEK.prior, runs(2, 8, 600_000), tests({ passed: 5, failed: 5, flaky: 5 })),
        ),
      }),
    ]);
    expect(available(r, "a").current.runPassRate).toBe(0.99);
    expect(available(r, "b").current.runPassRate).toBe(0.1);
    expect(r.total.current.runs).toBe(1010);
    expect(r.total.current.runPassRate).toBeCloseTo(991 / 1010, 12); // 98.1%, not 54.5%
    expect(r.total.current.flakyRate).toBeCloseTo(15 / 1000, 12); // 1.5%, not 25.5%
    expect(r.total.current.meanRunDurationMs).toBeCloseTo((1000 * 60_000 + 10 * 600_000) / 1010, 6);
    expect(r.total.prior?.runPassRate).toBeCloseTo(982 / 1010, 12);
    expect(r.total.excluded).toEqual([]);
    expect(r.total.priorNote).toBeNull();
  });

  it("marks a project with runs before and none now silent, and leaves it out of both team totals", () => {
    const r = report([
      project("a", {
        current: ok(totals(WEEK.current, runs(90, 10), tests({ passed: 1000 }))),
        prior: ok(totals(WEEK.prior, runs(90, 10), tests({ passed: 1000 }))),
      }),
      project("stopped", {
        current: ok(totals(WEEK.current, runs(0, 0), tests({}))),
        prior: ok(totals(WEEK.prior, runs(1, 2), tests({ passed: 30, failed: 5 }))),
      }),
      project("never", {
        current: ok(totals(WEEK.current, runs(0, 0), tests({}))),
        prior: ok(totals(WEEK.prior, runs(0, 0), tests({}))),
      }),
    ]);
    expect(available(r, "stopped").silent).toBe(true);
    expect(available(r, "never").silent).toBe(false);
    expect(available(r, "a").silent).toBe(false);
    expect(r.total.silent).toEqual(["STOPPED"]);
    // Without the stopped suite's failing runs in the prior, the team did not "improve".
    expect(r.total.prior?.runs).toBe(100);
    expect(r.total.deltas.runPassRate).toMatchObject({ kind: "change", pp: 0 });
  });

  it("takes min_change_pp from its input and compares counts per day of each span", () => {
    const r = report(
      [
        project("a", {
          current: ok(totals(WEEK.current, runs(800, 200), tests({ passed: 1000 }))),
          prior: ok(totals(WEEK.prior, runs(820, 180), tests({ passed: 1000 }))),
        }),
      ],
      { minChangePp: 3 },
    );
    // −2.0 pp on 1000 runs: not significant anyway; and under 3 pp: not large.
    expect(available(r, "a").deltas.runPassRate).toMatchObject({ large: false });
  });

  it("uses the API's own overall counts for a project's period figures", () => {
    const days = insights(WEEK.current, { "2026-11-09": { runs: runs(1, 0) } });
    const overall = { runs: runs(40, 10, 90_000), tests: tests({ passed: 100 }) };
    const r = report([
      project("a", {
        current: ok({ ...days, overall }),
        prior: ok(totals(WEEK.prior, runs(1, 0))),
      }),
    ]);
    expect(available(r, "a").current.runs).toBe(50);
    expect(available(r, "a").current.meanRunDurationMs).toBe(90_000);
    expect(available(r, "a").daily[0]?.figures.runs).toBe(1);
  });

  it("lists a project that could not be fetched as unavailable, and leaves it out of the total", () => {
    const r = report([
      project("a", {
        current: ok(totals(WEEK.current, runs(9, 1), tests({ passed: 10 }))),
        prior: ok(totals(WEEK.prior, runs(8, 2), tests({ passed: 10 }))),
      }),
      project("gone", {
        name: "Old project",
        current: failed("PROJECT_NOT_FOUND", 'project "gone" was not found in this workspace'),
        prior: failed("PROJECT_NOT_FOUND", 'project "gone" was not found in this workspace'),
      }),
    ]);
    expect(r.projects[1]).toEqual({
      projectId: "gone",
      name: "Old project",
      filters: { branch: null, author: null, tags: [] },
      status: "unavailable",
      reason: {
        code: "PROJECT_NOT_FOUND",
        message: 'project "gone" was not found in this workspace',
      },
    });
    expect(r.total.excluded).toEqual(["Old project"]);
    expect(r.total.current).toEqual(available(r, "a").current);
    expect(r.total.deltas).toEqual(available(r, "a").deltas);
  });

  it("says the prior period is not available, with the API's earliest date, beyond the lookback", () => {
    const note = "prior period not available: insights go back to 2026-08-25";
    const r = report([
      project("a", {
        current: ok(totals(WEEK.current, runs(9, 1), tests({ passed: 10, flaky: 1 }))),
        prior: failed("LOOKBACK", LOOKBACK_MESSAGE, "2026-08-25"),
      }),
      project("b", {
        current: ok(totals(WEEK.current, runs(5, 0), tests({ passed: 5 }))),
        prior: failed("LOOKBACK", LOOKBACK_MESSAGE, "2026-08-25"),
      }),
    ]);
    const a = available(r, "a");
    expect(a.prior).toBeNull();
    expect(a.priorNote).toBe(note);
    expect(a.deltas.flakyRate).toEqual({ kind: "unavailable", reason: note });
    expect(a.deltas.runs).toEqual({ kind: "unavailable", reason: note });
    expect(a.current.runs).toBe(10);
    expect(r.total.prior).toBeNull();
    expect(r.total.priorNote).toBe(note);
    expect(r.total.deltas.runPassRate).toEqual({ kind: "unavailable", reason: note });
    expect(r.total.current.runs).toBe(15);
  });

  it("compares like with like when only some projects have a prior", () => {
    const r = report([
      project("a", {
        current: ok(totals(WEEK.current, runs(100, 0))),
        prior: ok(totals(WEEK.prior, runs(100, 0))),
      }),
      project("b", {
        name: "Flaky API",
        current: ok(totals(WEEK.current, runs(50, 0))),
        prior: failed("UPSTREAM", "the insights API answered 503 after 3 attempts"),
      }),
    ]);
    expect(available(r, "b").priorNote).toBe(
      "prior period not available: the insights API answered 503 after 3 attempts",
    );
    expect(r.total.current.runs).toBe(150);
    expect(r.total.prior?.runs).toBe(100);
    // Project a alone: 100 runs then and now, not a 50% jump.
    expect(r.total.deltas.runs).toMatchObject({ kind: "change", diff: 0, pct: 0 });
    expect(r.total.priorNote).toBe(
      "prior period not available for Flaky API; changes compare the other 1 project only",
    );
  });

  it("reports a period with no data as zero counts, absent rates and no deltas", () => {
    const r = report([project("quiet")]);
    const quiet = available(r, "quiet");
    expect(quiet.current).toEqual(emptyFigures());
    expect(quiet.prior).toEqual(emptyFigures());
    expect(quiet.deltas.flakyRate).toEqual({ kind: "none" });
    expect(quiet.deltas.runs).toEqual({ kind: "none" });
    expect(quiet.daily).toHaveLength(7);
    expect(quiet.daily.every((d) => d.figures.runs === 0 && d.figures.flakyRate === null)).toBe(
      true,
    );
    expect(r.total.current.runPassRate).toBeNull();
  });

  it("marks figures new when the prior period had no data", () => {
    const r = report([
      project("fresh", {
        current: ok(totals(WEEK.current, runs(9, 1), tests({ passed: 10 }))),
      }),
    ]);
    const fresh = available(r, "fresh");
    expect(fresh.deltas.runPassRate).toEqual({ kind: "new" });
    expect(fresh.deltas.runs).toEqual({ kind: "new" });
    expect(fresh.deltas.meanRunDurationMs).toEqual({ kind: "new" });
    expect(r.total.deltas.flakyRate).toEqual({ kind: "new" });
  });

  it("sums the team's daily series over the available projects", () => {
    const r = report([
      project("a", {
        current: ok(insights(WEEK.current, { "2026-11-10": { runs: runs(3, 1) } })),
      }),
      project("b", {
        current: ok(insights(WEEK.current, { "2026-11-10": { runs: runs(0, 4) } })),
      }),
      project("down", { current: failed("UPSTREAM", "timed out") }),
    ]);
    expect(r.total.daily.map((d) => d.figures.runs)).toEqual([0, 8, 0, 0, 0, 0, 0]);
    expect(r.total.daily[1]?.figures.runPassRate).toBe(3 / 8);
    expect(r.total.daily[0]?.figures.runPassRate).toBeNull();
  });

  it("carries the team, digest, periods, instant, dashboard and alerts through", () => {
    const alert = {
      alert: "flaky-rate",
      severity: "warn" as const,
      value: 0.04,
      threshold: 0.03,
      projectId: null,
    };
    const r = report([], { dashboardUrl: "https://x.example/{project_id}", alerts: [alert] });
    expect(r.team).toEqual({
      name: "checkout",
      title: "Checkout squad",
      timezone: "Europe/Berlin",
    });
    expect(r.digest).toBe("weekly");
    expect(r.periods).toEqual(WEEK);
    expect(r.generatedAt).toBe("2026-11-16T08:00:00.000Z");
    expect(r.dashboardUrl).toBe("https://x.example/{project_id}");
    expect(r.alerts).toEqual([alert]);
    expect(report([]).alerts).toEqual([]);
  });

  it("with every project unavailable still builds, with an empty total and no deltas", () => {
    const r = report([
      project("x", { current: failed("UPSTREAM", "down"), prior: failed("UPSTREAM", "down") }),
    ]);
    expect(r.total.current).toEqual(emptyFigures());
    expect(r.total.prior).toBeNull();
    expect(r.total.excluded).toEqual(["X"]);
    expect(Object.values(r.total.deltas).every((d) => d.kind === "none")).toBe(true);
  });
});

describe("a report never holds NaN or Infinity", () => {
  const counts = fc.record({
    passed: fc.nat(50),
    failed: fc.nat(50),
    flaky: fc.nat(50),
    skipped: fc.nat(5),
    timedOut: fc.nat(5),
    duration: fc.option(fc.nat(1_000_000)),
  });
  const outcome = (period: typeof WEEK.current) =>
    fc.oneof(
      counts.map((c) =>
        ok(
          totals(
            period,
            runs(c.passed, c.failed, c.duration),
            tests({
              passed: c.passed + c.flaky,
              failed: c.failed,
              flaky: c.flaky,
              skipped: c.skipped,
              timedOut: c.timedOut,
            }),
          ),
        ),
      ),
      fc.constant(ok(insights(period))),
      fc.constant(failed("LOOKBACK", LOOKBACK_MESSAGE, "2026-08-25")),
      fc.constant(failed("UPSTREAM", "down")),
    );

  it("whatever mix of data, zeros, lookbacks and failures it is built from", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(outcome(WEEK.current), outcome(WEEK.prior)), { maxLength: 6 }),
        (pairs) => {
          const r = report(
            pairs.map(([current, prior], i) => project(`p${i}`, { current, prior })),
          );
          const bad = numbersIn(r).filter(([, n]) => !Number.isFinite(n));
          expect(bad).toEqual([]);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("in a hand-built report with every edge at once", () => {
    const r = report([
      project("empty"),
      project("all-pass", {
        current: ok(totals(WEEK.current, runs(10, 0), tests({ passed: 10 }))),
        prior: ok(totals(WEEK.prior, runs(10, 0), tests({ passed: 10 }))),
      }),
      project("from-zero", { current: ok(totals(WEEK.current, runs(0, 3), tests({ failed: 3 }))) }),
      project("lookback", {
        current: ok(totals(WEEK.current, runs(1, 0))),
        prior: failed("LOOKBACK", LOOKBACK_MESSAGE, "2026-08-25"),
      }),
      project("down", { current: failed("UPSTREAM", "down") }),
    ]);
    const numbers = numbersIn(r);
    expect(numbers.length).toBeGreaterThan(100);
    expect(numbers.filter(([, n]) => !Number.isFinite(n))).toEqual([]);
    expect(available(r, "all-pass").deltas.runPassRate).toEqual({
      kind: "change",
      pp: 0,
      significant: false,
      pValue: 1,
      large: false,
    });
  });
});

describe("buildReport with days neither the API nor the day store has", () => {
  /** Insights of `period` with `runsPerDay` passed runs each day, leaving out `missing` days. */
  function held(period: typeof WEEK.current, runsPerDay: number, missing: string[] = []) {
    const data = Object.fromEntries(
      datesIn(period)
        .filter((date) => !missing.includes(date))
        .map((date) => [date, { runs: runs(runsPerDay, 0), tests: tests({ passed: runsPerDay }) }]),
    );
    const full = insights(period, data);
    if (missing.length === 0) return full;
    return {
      ...full,
      days: full.days.filter((d) => !missing.includes(d.date)),
      missingDays: missing,
    };
  }
  const PRIOR_GAP = ["2026-11-02", "2026-11-03", "2026-11-04"];

  it("names the missing days once, and compares counts per day held, not as fewer runs", () => {
    const r = report([
      project("a", {
        current: ok(held(WEEK.current, 100)),
        prior: ok(held(WEEK.prior, 100, PRIOR_GAP)),
      }),
      project("b", {
        current: ok(held(WEEK.current, 50)),
        prior: ok(held(WEEK.prior, 50, PRIOR_GAP)),
      }),
    ]);
    expect(r.missingDaysNote).toMatch(
      /^No figures for 2026-11-02\.\.2026-11-04 of the prior period: older than the insights API's 3 months and not in the day store/,
    );
    expect(r.missingDaysNote).not.toContain("(A");
    // 700 runs in 7 days against 400 in the 4 days held: the same 100 a day, no change.
    expect(available(r, "a").prior?.runs).toBe(400);
    expect(available(r, "a").deltas.runs).toMatchObject({ kind: "change", significant: false });
    expect(r.total.deltas.runs).toMatchObject({ kind: "change", significant: false });
  });

  it("names the projects when only some lack the days, and leaves their days out of the daily series", () => {
    const gap = ["2026-11-09", "2026-11-10"];
    const r = report([
      project("a", { current: ok(held(WEEK.current, 100, gap)), prior: ok(held(WEEK.prior, 100)) }),
      project("b", { current: ok(held(WEEK.current, 50)), prior: ok(held(WEEK.prior, 50)) }),
    ]);
    expect(r.missingDaysNote).toContain("2026-11-09..2026-11-10 of the period (A)");
    expect(available(r, "a").daily.map((d) => d.date)).toEqual(datesIn(WEEK.current).slice(2));
    // The team has those days from project b.
    expect(r.total.daily).toHaveLength(7);
  });

  it("has no note when every day is there", () => {
    const r = report([
      project("a", { current: ok(held(WEEK.current, 10)), prior: ok(held(WEEK.prior, 10)) }),
    ]);
    expect(r.missingDaysNote).toBeNull();
  });
});
