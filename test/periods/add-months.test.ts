import fc from "fast-check";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { apiEarliestDate } from "../../src/insights/api-lookback.js";
import { addMonths } from "../../src/periods/calendar-date.js";
import { firstKeptDate } from "../../src/periods/retention.js";

// One month arithmetic for the API's 3-month lookback, the keep warning and history.keep's
// calendar years: a day the month reached lacks becomes its last day (luxon's meaning).

describe("addMonths", () => {
  it.each([
    ["2026-05-31", -3, "2026-02-28"],
    ["2028-05-31", -3, "2028-02-29"],
    ["2028-02-29", -12, "2027-02-28"],
    ["2028-02-29", 12, "2029-02-28"],
    ["2028-02-29", 48, "2032-02-29"],
    ["2026-12-31", 3, "2027-03-31"],
    ["2026-12-31", 2, "2027-02-28"],
    ["2026-12-31", -3, "2026-09-30"],
    ["2027-03-31", -3, "2026-12-31"],
    ["2026-01-31", 1, "2026-02-28"],
    ["2026-10-23", -3, "2026-07-23"],
    ["2026-11-25", 0, "2026-11-25"],
  ])("%s plus %i months is %s", (date, months, expected) => {
    expect(addMonths(date, months)).toBe(expected);
  });

  it("agrees with luxon's plus({ months }) on any date and span", () => {
    const day = fc
      .integer({ min: Date.UTC(1971, 0, 1), max: Date.UTC(2099, 11, 31) })
      .map((ms) => new Date(ms).toISOString().slice(0, 10));
    fc.assert(
      fc.property(day, fc.integer({ min: -60, max: 60 }), (date, months) => {
        const luxon = DateTime.fromISO(date, { zone: "utc" }).plus({ months }).toISODate();
        expect(addMonths(date, months)).toBe(luxon);
      }),
      { numRuns: 2_000 },
    );
  });

  it("lands in the month it counts to, never rolling into the next", () => {
    const day = fc
      .integer({ min: Date.UTC(1971, 0, 1), max: Date.UTC(2099, 11, 31) })
      .map((ms) => new Date(ms).toISOString().slice(0, 10));
    fc.assert(
      fc.property(day, fc.integer({ min: -60, max: 60 }), (date, months) => {
        const monthIndex = (iso: string) => Number(iso.slice(0, 4)) * 12 + Number(iso.slice(5, 7));
        const result = addMonths(date, months);
        expect(monthIndex(result) - monthIndex(date)).toBe(months);
        expect(Number(result.slice(8, 10))).toBeLessThanOrEqual(Number(date.slice(8, 10)));
      }),
    );
  });
});

describe("its users agree on the month's end", () => {
  it("the keep warning's API earliest date is the API's: 31 May less 3 months is 28 February", () => {
    expect(apiEarliestDate("2026-05-31")).toBe("2026-02-28");
    expect(apiEarliestDate("2026-12-31")).toBe("2026-09-30");
  });

  it("history.keep's calendar years keep 28 February on 29 February", () => {
    expect(firstKeptDate("2028-02-29", { amount: 1, unit: "y" })).toBe("2027-02-28");
    expect(firstKeptDate("2028-02-29", { amount: 4, unit: "y" })).toBe("2024-02-29");
  });
});
