import { describe, expect, it } from "vitest";
import { firstKeptDate, parseRetention } from "../../src/periods/retention.js";
import { configText, issueLines, parse } from "../config/config-builders.js";

describe("history.keep", () => {
  it.each([
    ["2y", "2026-11-25", "2024-11-25"],
    ["1y", "2028-02-29", "2027-02-28"],
    ["2y", "2027-03-01", "2025-03-01"],
    ["18w", "2026-11-25", "2026-07-22"],
    ["400d", "2026-11-25", "2025-10-21"],
  ])("%s on %s keeps the days from %s on", (keep, today, first) => {
    expect(firstKeptDate(today, parseRetention(keep))).toBe(first);
  });

  it("defaults to two years", () => {
    const result = parse(configText());
    if (!("config" in result)) throw new Error(issueLines(result).join("\n"));
    expect(result.config.history?.keep).toEqual({ amount: 2, unit: "y" });
  });

  it.each([
    ["0y", 'must be at least 1d, e.g. "2y"'],
    ["6m", '"6m" is not allowed — must be days, weeks or years, such as "2y", "18w" or "400d"'],
  ])("refuses keep: %s, naming the form", (keep, message) => {
    expect(issueLines(parse(configText({ "history.keep": keep })))).toEqual([
      `history.keep: ${message}`,
    ]);
  });
});
