import { describe, expect, it } from "vitest";
import { median, medianInsights, medianOutcome } from "../../src/insights/median-insights.js";
import { buildReport } from "../../src/report/build-report.js";
import { insights, ok, project, runs, tests, totals } from "../report/builders.js";

// median_of_4_weeks: each count of the baseline is the median of the 4 spans' counts, rates are
// computed from those counts, and one odd span among the four does not move the baseline.

const TUESDAY = { start: "2026-11-24", end: "2026-11-24" };
const TUESDAYS = ["2026-11-17", "2026-11-10", "2026-11-03", "2026-10-27"].map((date) => ({
  start: date,
  end: date,
}));
const COVERING = { start: "2026-10-27", end: "2026-11-17" };
const PERIODS = {
  kind: "previous_day" as const,
  compareTo: "median_of_4_weeks" as const,
  current: TUESDAY,
  prior: COVERING,
  baseline: TUESDAYS,
};

/** A Tuesday with `flaky` of 1,000 results flaky and 100 runs, 2 of them failed. */
function tuesday(span: { start: string; end: string }, flaky: number) {
  return totals(span, runs(98, 2), tests({ passed: 1_000, flaky }));
}

describe("a median baseline", () => {
  it.each([
    [[3, 1, 2], 2],
    [[4, 1, 3, 2], 2.5],
    [[7], 7],
    [[], null],
  ])("median of %j is %s", (values, expected) => {
    expect(median(values)).toBe(expected);
  });

  it("takes each count's median over the spans, so one odd Tuesday does not move it", () => {
    const spans = [
      tuesday(TUESDAYS[0] ?? TUESDAY, 300),
      ...TUESDAYS.slice(1).map((d) => tuesday(d, 10)),
    ];
    const baseline = medianInsights(spans, COVERING);
    expect(baseline.overall.tests.flaky).toBe(10);
    expect(baseline.overall.tests.passed).toBe(1_000);
    expect(baseline.overall.runs).toEqual({ passed: 98, failed: 2, meanDurationMs: 60_000 });
    expect(baseline.startDate).toBe(COVERING.start);
  });

  it("rounds a median between two counts to a whole count", () => {
    const spans = [11, 10, 13, 12].map((flaky, i) => tuesday(TUESDAYS[i] ?? TUESDAY, flaky));
    expect(medianInsights(spans, COVERING).overall.tests.flaky).toBe(12); // 11.5 → 12
  });

  it("leaves out a span with missing days while whole ones remain, and fails only when none was fetched", () => {
    const partial = { ...tuesday(TUESDAYS[3] ?? TUESDAY, 500), missingDays: ["2026-10-27"] };
    const whole = TUESDAYS.slice(0, 3).map((d) => ok(tuesday(d, 10)));
    const outcome = medianOutcome([...whole, ok(partial)], COVERING);
    expect(outcome.ok && outcome.insights.overall.tests.flaky).toBe(10);
    const refused = {
      ok: false as const,
      error: { code: "LOOKBACK" as const, message: "too old" },
    };
    expect(medianOutcome([refused, refused], COVERING)).toEqual(refused);
  });

  it("does not colour today against one odd Tuesday, and the team's baseline is summed from counts", () => {
    const odd = [300, 10, 10, 10];
    const report = buildReport({
      team: { name: "checkout", title: "Checkout", timezone: "Europe/Berlin" },
      digest: "daily",
      periods: PERIODS,
      generatedAt: "2026-11-25T08:00:00.000Z",
      dashboardUrl: null,
      projects: ["a", "b"].map((id) =>
        project(id, {
          current: ok(tuesday(TUESDAY, 12)),
          prior: medianOutcome(
            odd.map((flaky, i) => ok(tuesday(TUESDAYS[i] ?? TUESDAY, flaky))),
            COVERING,
          ),
        }),
      ),
    });
    // Against the mean of the four (82.5 flaky a Tuesday), 12 would read as a big improvement.
    expect(report.total.prior?.testsFlaky).toBe(20);
    expect(report.total.prior?.flakyRate).toBeCloseTo(20 / 2_000, 12);
    expect(report.total.deltas.flakyRate).toMatchObject({ kind: "change", significant: false });
  });

  it("is the insights of an empty span when every span had no runs", () => {
    const empty = TUESDAYS.map((d) => insights(d));
    expect(medianInsights(empty, COVERING).overall.runs.meanDurationMs).toBeNull();
  });
});
