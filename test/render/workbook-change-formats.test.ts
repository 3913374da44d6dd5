import { beforeAll, describe, expect, it } from "vitest";
import { renderWorkbook } from "../../src/render/workbook/workbook.js";
import { sampleReport } from "./workbook-fixture.js";
import { cell, loadWorkbook, records, sheet } from "./workbook-read.js";

// A change column's number format must never show "-0.0" or "-0%": a change too small to show
// reads as no change. The cells hold exact values, so the format alone decides what is shown.
// LibreOffice is not installed here, so the formats are read from the rendered workbook and shown
// by `showAsExcel`, a small evaluator of the parts of Excel's number formats that we use.

/**
 * `value` shown in `format` as Excel shows it, for formats made of up to three sections of an
 * optional `[op limit]` condition, an optional `+`/`-` literal, `0`, optional decimals and `%`.
 * Sections are picked as Excel picks them: by sign, or by the conditions when any section has
 * one (first, then second, else the third). With more than one section Excel drops a negative
 * number's own sign: a section prints only the sign it spells.
 */
function showAsExcel(format: string, value: number): string {
  const sections = format.split(";");
  const condition = /^\[(>=|<=|<>|>|<|=)(-?\d+(?:\.\d*)?)\]/;
  const holds = (section: string | undefined) => {
    const m = section?.match(condition);
    if (!m) return false;
    const limit = Number(m[2]);
    const ops: Record<string, boolean> = {
      ">=": value >= limit,
      "<=": value <= limit,
      "<>": value !== limit,
      ">": value > limit,
      "<": value < limit,
      "=": value === limit,
    };
    return ops[m[1] as string] === true;
  };
  let section: string;
  if (sections.some((s) => condition.test(s))) {
    section = holds(sections[0])
      ? (sections[0] as string)
      : holds(sections[1])
        ? (sections[1] as string)
        : (sections[2] ?? sections[1] ?? "");
  } else {
    section =
      (value > 0 ? sections[0] : value < 0 ? sections[1] : sections[2]) ?? (sections[0] as string);
  }
  const body = section.replace(condition, "");
  const m = body.match(/^([+-]?)0(?:\.(0+))?(%?)$/);
  if (!m) throw new Error(`showAsExcel cannot read the section ${body} of ${format}`);
  const [, sign = "", decimals = "", percent = ""] = m;
  const magnitude = (sections.length > 1 ? Math.abs(value) : value) * (percent ? 100 : 1);
  // Excel rounds half away from zero, on the decimal value (0.05 → 0.1).
  const scale = 10 ** decimals.length;
  const rounded =
    (Math.sign(magnitude) * Math.round(Number((Math.abs(magnitude) * scale).toPrecision(15)))) /
    scale;
  return `${sign}${rounded.toFixed(decimals.length)}${percent}`;
}

let formats: { pp: string; pct: string };
beforeAll(async () => {
  const book = await loadWorkbook(await renderWorkbook(sampleReport()));
  const first = records(sheet(book, "Summary"))[0];
  if (!first) throw new Error("no Summary row");
  formats = {
    pp: String(cell(first, "Run pass rate Δ (pp)").numFmt),
    pct: String(cell(first, "Runs Δ (%)").numFmt),
  };
});

describe("the workbook's change columns", () => {
  it.each([
    [-0.03, "0.0"],
    [-0.049, "0.0"],
    [0.03, "0.0"],
    [0, "0.0"],
    [0.05, "+0.1"],
    [-0.05, "-0.1"],
    [-0.07, "-0.1"],
    [0.0579, "+0.1"],
    [1.26, "+1.3"],
    [-12.34, "-12.3"],
  ])("show a change of %s percentage points as %s", (pp, shown) => {
    expect(showAsExcel(formats.pp, pp)).toBe(shown);
  });

  it.each([
    [-0.004, "0%"],
    [0.004, "0%"],
    [0, "0%"],
    [0.005, "+1%"],
    [-0.005, "-1%"],
    [-0.25, "-25%"],
    [1.5, "+150%"],
  ])("show a count's change of %s (a fraction) as %s", (fraction, shown) => {
    expect(showAsExcel(formats.pct, fraction)).toBe(shown);
  });
});

describe("showAsExcel", () => {
  it("shows formats as Excel does, signs and sections included", () => {
    expect(showAsExcel("+0.0;-0.0;0.0", -0.03)).toBe("-0.0");
    expect(showAsExcel("+0.0;-0.0;0.0", 0)).toBe("0.0");
    expect(showAsExcel("0.0%", 0.1234)).toBe("12.3%");
    expect(showAsExcel("0.0", -0.26)).toBe("-0.3");
  });
});
