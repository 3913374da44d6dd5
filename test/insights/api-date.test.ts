import { describe, expect, it } from "vitest";
import { formatApiDate, parseApiDate } from "../../src/insights/api-date.js";
import { addDays, daysBetween, isIsoDate } from "../../src/periods/calendar-date.js";

describe("parseApiDate", () => {
  it.each([
    ["Nov  2, 2026", "2026-11-02"],
    ["Nov 2, 2026", "2026-11-02"],
    ["Nov 12, 2026", "2026-11-12"],
    ["Jan  1, 2027", "2027-01-01"],
    ["Feb 29, 2028", "2028-02-29"],
    ["Dec 31, 2026", "2026-12-31"],
  ])("reads %j as %s", (text, iso) => {
    expect(parseApiDate(text)).toBe(iso);
  });

  it.each([
    "Feb 29, 2027",
    "Feb 30, 2026",
    "Nov 31, 2026",
    "Foo  2, 2026",
    "nov  2, 2026",
    "November 2, 2026",
    "Nov   2, 2026",
    "Nov  2 2026",
    "2026-11-02",
    " Nov  2, 2026",
    "",
  ])("refuses %j", (text) => {
    expect(parseApiDate(text)).toBeNull();
  });
});

describe("formatApiDate", () => {
  it("pads single-digit days with a space, as %e does", () => {
    expect(formatApiDate("2026-11-02")).toBe("Nov  2, 2026");
    expect(formatApiDate("2026-11-12")).toBe("Nov 12, 2026");
  });

  it("round-trips with parseApiDate over a whole year", () => {
    for (let i = 0; i < 366; i++) {
      const iso = addDays("2028-01-01", i);
      expect(parseApiDate(formatApiDate(iso))).toBe(iso);
    }
  });
});

describe("ISO date helpers", () => {
  it("accepts only real ISO dates", () => {
    expect(isIsoDate("2026-11-02")).toBe(true);
    expect(isIsoDate("2026-02-29")).toBe(false);
    expect(isIsoDate("2026-11-2")).toBe(false);
    expect(isIsoDate("2026-11-02T00:00:00Z")).toBe(false);
  });

  it("counts and steps whole days across month, year and DST boundaries", () => {
    expect(daysBetween("2026-10-24", "2026-10-26")).toBe(2);
    expect(daysBetween("2026-12-31", "2027-01-01")).toBe(1);
    expect(daysBetween("2026-11-02", "2026-11-01")).toBe(-1);
    expect(addDays("2026-03-28", 2)).toBe("2026-03-30");
    expect(addDays("2027-01-01", -1)).toBe("2026-12-31");
  });
});
