import { describe, expect, it } from "vitest";
import { comparisonLabel } from "../../src/render/comparison-label.js";
import { aboutLines } from "../../src/render/workbook/workbook-about.js";
import { checkoutReport, DAY_VS_LAST_WEEK, WEEK } from "./report-fixture.js";

const priorLine = (periods: typeof WEEK) =>
  aboutLines(checkoutReport({ periods }), "2026-11-16T08:00:00.000Z").find(
    (l) => l.cells[0] === "Prior period",
  )?.cells[1];

describe("the workbook's About sheet", () => {
  it("names the comparison as the digest does", () => {
    expect(comparisonLabel(DAY_VS_LAST_WEEK)).toBe("vs Nov 8, 2026 (same day last week)");
    expect(priorLine(DAY_VS_LAST_WEEK)).toBe(
      "Nov 8, 2026 (2026-11-08 to 2026-11-08), same day last week",
    );
    expect(comparisonLabel(WEEK)).toBe("vs previous 7 days (Nov 2 \u2013 8, 2026)");
    expect(priorLine(WEEK)).toBe(
      "Nov 2 \u2013 8, 2026 (2026-11-02 to 2026-11-08), previous 7 days",
    );
  });

  it("names a year-earlier and a median comparison in the digest's words too", () => {
    const month = {
      kind: "previous_month",
      compareTo: "same_period_last_year",
      current: { start: "2026-10-01", end: "2026-10-31" },
      prior: { start: "2025-10-01", end: "2025-10-31" },
    } as const;
    expect(priorLine(month)).toMatch(/, same period last year$/);
    const median = {
      ...DAY_VS_LAST_WEEK,
      compareTo: "median_of_4_weeks",
      baseline: [
        { start: "2026-11-08", end: "2026-11-08" },
        { start: "2026-11-01", end: "2026-11-01" },
        { start: "2026-10-25", end: "2026-10-25" },
        { start: "2026-10-18", end: "2026-10-18" },
      ],
    } as const;
    expect(priorLine(median)).toMatch(/, the median of the last 4 Sundays$/);
  });
});
