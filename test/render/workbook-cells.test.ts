import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  displayLength,
  excelDate,
  groupedLength,
} from "../../src/render/workbook/workbook-cells.js";

// The cheap forms of two per-cell helpers of the workbook are held to the slow, obvious ones.

describe("workbook cell helpers", () => {
  it("groupedLength is the length toLocaleString('en-US') writes an integer in", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
        (n) => {
          expect(groupedLength(n)).toBe(n.toLocaleString("en-US").length);
        },
      ),
    );
    for (const n of [0, 9, 999, 1_000, 999_999, 1_000_000, -1_000])
      expect(groupedLength(n)).toBe(n.toLocaleString("en-US").length);
  });

  it("a count's display length rounds first, as its #,##0 format shows it", () => {
    expect(displayLength("count", 999.6)).toBe("1,000".length);
    expect(displayLength("count", 12_345)).toBe(6);
  });

  it("excelDate is midnight UTC of the ISO date", () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date("1900-03-01"), max: new Date("9999-12-31"), noInvalidDate: true }),
        (d) => {
          const iso = d.toISOString().slice(0, 10);
          expect(excelDate(iso).toISOString()).toBe(`${iso}T00:00:00.000Z`);
        },
      ),
    );
  });
});
