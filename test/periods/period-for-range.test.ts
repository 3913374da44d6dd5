import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/errors.js";
import { periodForRange, priorOfRange } from "../../src/periods/period-for-range.js";

describe("periodForRange", () => {
  it("accepts a range of real dates, both ends inclusive", () => {
    expect(periodForRange("2028-02-01", "2028-02-29")).toEqual({
      start: "2028-02-01",
      end: "2028-02-29",
    });
    expect(periodForRange("2026-11-15", "2026-11-15")).toEqual({
      start: "2026-11-15",
      end: "2026-11-15",
    });
  });

  it.each([
    ["2026-02-29", "2026-03-01", /--from "2026-02-29" is not a date/],
    ["2026-11-01", "15/11/2026", /--to "15\/11\/2026" is not a date — write it as YYYY-MM-DD/],
    ["2026-11-01", "2026-11-01T00:00", /--to .* is not a date/],
    ["2026-11-10", "2026-11-01", /--from 2026-11-10 is after --to 2026-11-01/],
  ])("refuses %s..%s with a usage error that says what to fix", (start, end, message) => {
    expect(() => periodForRange(start, end)).toThrow(UsageError);
    expect(() => periodForRange(start, end)).toThrow(message);
  });
});

describe("priorOfRange", () => {
  it.each([
    [
      ["2026-11-09", "2026-11-15"],
      ["2026-11-02", "2026-11-08"],
    ],
    [
      ["2026-11-15", "2026-11-15"],
      ["2026-11-14", "2026-11-14"],
    ],
    // A range export compares equal lengths, even for a whole month.
    [
      ["2026-03-01", "2026-03-31"],
      ["2026-01-29", "2026-02-28"],
    ],
    [
      ["2028-03-01", "2028-03-02"],
      ["2028-02-28", "2028-02-29"],
    ],
    [
      ["2027-01-01", "2027-01-10"],
      ["2026-12-22", "2026-12-31"],
    ],
  ])("%j is compared with %j", ([start, end], [priorStart, priorEnd]) => {
    expect(priorOfRange({ start: start as string, end: end as string })).toEqual({
      start: priorStart,
      end: priorEnd,
    });
  });
});
