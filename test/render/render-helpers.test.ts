import { describe, expect, it } from "vitest";
import { addDays } from "../../src/periods/calendar-date.js";
import type { PeriodPair } from "../../src/periods/types.js";
import { comparisonLabel, projectPriorNotes } from "../../src/render/comparison-label.js";
import { digestNews } from "../../src/render/digest-news.js";
import { atZone, sparkline } from "../../src/render/format.js";
import { worstFirst } from "../../src/render/worst-first.js";
import type { AvailableProject } from "../../src/report/types.js";
import { checkoutReport, LOOKBACK_NOTE, project, quietTotal } from "./report-fixture.js";

/** The news of a quiet team of these projects, which orders them. */
function newsOf(projects: AvailableProject[]) {
  return digestNews(quietTotal(checkoutReport({ projects, alerts: [] })));
}

describe("comparisonLabel", () => {
  const pair = (
    kind: PeriodPair["kind"],
    compareTo: PeriodPair["compareTo"],
    current: [string, string],
    prior: [string, string],
  ): PeriodPair => ({
    kind,
    compareTo,
    current: { start: current[0], end: current[1] },
    prior: { start: prior[0], end: prior[1] },
  });
  it.each([
    [
      pair(
        "previous_day",
        "same_period_last_week",
        ["2026-11-15", "2026-11-15"],
        ["2026-11-08", "2026-11-08"],
      ),
      "vs Nov 8, 2026 (same day last week)",
    ],
    [
      pair(
        "previous_day",
        "previous_period",
        ["2026-11-15", "2026-11-15"],
        ["2026-11-14", "2026-11-14"],
      ),
      "vs previous day (Nov 14, 2026)",
    ],
    [
      pair(
        "last_7_days",
        "previous_period",
        ["2026-11-09", "2026-11-15"],
        ["2026-11-02", "2026-11-08"],
      ),
      "vs previous 7 days (Nov 2 \u2013 8, 2026)",
    ],
    [
      pair(
        "previous_week",
        "previous_period",
        ["2026-11-09", "2026-11-15"],
        ["2026-11-02", "2026-11-08"],
      ),
      "vs previous week (Nov 2 \u2013 8, 2026)",
    ],
    [
      pair(
        "last_7_days",
        "same_period_last_week",
        ["2026-11-09", "2026-11-15"],
        ["2026-11-02", "2026-11-08"],
      ),
      "vs Nov 2 \u2013 8, 2026 (same period last week)",
    ],
    [
      pair(
        "previous_month",
        "previous_period",
        ["2026-11-01", "2026-11-30"],
        ["2026-10-01", "2026-10-31"],
      ),
      "vs previous month (Oct 1 \u2013 31, 2026)",
    ],
    [
      pair(
        "previous_quarter",
        "same_period_last_year",
        ["2026-01-01", "2026-03-31"],
        ["2025-01-01", "2025-03-31"],
      ),
      "vs Jan 1 \u2013 Mar 31, 2025 (same quarter last year)",
    ],
    [
      {
        ...pair(
          "previous_day",
          "median_of_4_weeks",
          ["2026-11-24", "2026-11-24"],
          ["2026-10-27", "2026-11-17"],
        ),
        baseline: ["2026-11-17", "2026-11-10", "2026-11-03", "2026-10-27"].map((d) => ({
          start: d,
          end: d,
        })),
      },
      "vs the median of the last 4 Tuesdays (Oct 27 \u2013 Nov 17, 2026)",
    ],
    [
      {
        ...pair(
          "previous_week",
          "median_of_4_weeks",
          ["2026-11-16", "2026-11-22"],
          ["2026-10-19", "2026-11-15"],
        ),
        baseline: [7, 14, 21, 28].map((back) => ({
          start: addDays("2026-11-16", -back),
          end: addDays("2026-11-22", -back),
        })),
      },
      "vs the median of the previous 4 weeks (Oct 19 \u2013 Nov 15, 2026)",
    ],
  ])("%#: %s", (periods, expected) => {
    expect(comparisonLabel(periods)).toBe(expected);
  });

  it("groups projects whose own prior is missing, leaving out the team's note", () => {
    const report = checkoutReport();
    expect(projectPriorNotes(report)).toEqual([{ note: LOOKBACK_NOTE, names: ["Payments"] }]);
    report.total = { ...report.total, priorNote: LOOKBACK_NOTE };
    expect(projectPriorNotes(report)).toEqual([]);
  });
});

describe("worstFirst", () => {
  const counts = (flaky: number, runsFailed: number, tests = 1000) => ({
    runsPassed: 100 - runsFailed,
    runsFailed,
    testsPassed: tests,
    testsFailed: 0,
    testsFlaky: flaky,
  });
  it("puts the highest flaky rate first, then the lowest run pass rate, projects without data last", () => {
    const projects = [
      project({ id: "calm", current: counts(1, 0), prior: null }),
      project({
        id: "empty",
        current: { runsPassed: 0, runsFailed: 0, testsPassed: 0, testsFailed: 0, testsFlaky: 0 },
        prior: null,
      }),
      project({ id: "flaky", current: counts(50, 0), prior: null }),
      project({ id: "failing", current: counts(1, 40), prior: null }),
      project({ id: "b-tie", current: counts(10, 5), prior: null }),
      project({ id: "a-tie", current: counts(10, 5), prior: null }),
    ];
    expect(worstFirst(projects, newsOf(projects)).map((p) => p.projectId)).toEqual([
      "flaky",
      "a-tie",
      "b-tie",
      "failing",
      "calm",
      "empty",
    ]);
  });

  it("puts silent projects first, then the largest worsening that is news, then flaky rate", () => {
    const projects = [
      project({ id: "flaky", current: counts(50, 0), prior: counts(50, 0) }),
      // run pass rate 100% → 78%: −22 pp, with the lowest flaky rate of all
      project({ id: "dropped", current: counts(1, 22), prior: counts(1, 0) }),
      // flaky 1.0% → 1.2%: significant on a large sample, under min_change_pp: not news
      project({ id: "crept", current: counts(12, 0), prior: counts(10, 0), noise: [] }),
      project({
        id: "stopped",
        current: { runsPassed: 0, runsFailed: 0, testsPassed: 0, testsFailed: 0, testsFlaky: 0 },
        prior: counts(5, 3),
        silent: true,
      }),
    ];
    expect(worstFirst(projects, newsOf(projects)).map((p) => p.projectId)).toEqual([
      "stopped",
      "dropped",
      "flaky",
      "crept",
    ]);
  });
});

describe("sparkline", () => {
  it("scales to its own max alone, and to a shared top when lines sit side by side", () => {
    const low = [0.005, 0.006, 0.007];
    expect(sparkline(low)).toBe("\u2586\u2587\u2588");
    // Against a project at 6%, the same 0.5–0.7% is near the floor.
    expect(sparkline(low, 0.06)).toBe("\u2582\u2582\u2582");
    expect(sparkline([null, 0.06], 0.06)).toBe(" \u2588");
  });
});

describe("atZone", () => {
  it("says an instant in the team's zone with its weekday, date and three-letter month", () => {
    expect(atZone(new Date("2026-11-25T08:00:00Z"), "Europe/Berlin")).toBe(
      "Wed 25 Nov 09:00 Europe/Berlin",
    );
    // September too: en-GB's month names wrote "Sept".
    expect(atZone(new Date("2026-09-01T07:00:00Z"), "Europe/Berlin")).toBe(
      "Tue 1 Sep 09:00 Europe/Berlin",
    );
  });
});
