import { describe, expect, it } from "vitest";
import { fitLine } from "../../src/render/terminal/terminal-style.js";
import { unwrapLines } from "./unwrap-lines.js";

const LONG =
  "checkout.daily.2026-11-17: already delivered (slack:C0123ABCD sent), says the ledger /tmp/state.sqlite — --force sends it again";

describe("unwrapLines", () => {
  it("joins back a line fitLine broke, and leaves the lines under a short one alone", () => {
    const printed = [
      ...fitLine(LONG, 80),
      "checkout.daily.2026-11-17: 3 projects",
      "  ✓ slack:C0123ABCD sent",
      "  wrote out/checkout.daily.2026-11-17.slack.json",
    ].join("\n");
    expect(printed.split("\n")).toHaveLength(5);
    expect(unwrapLines(printed).split("\n")).toEqual([
      LONG,
      "checkout.daily.2026-11-17: 3 projects",
      "  ✓ slack:C0123ABCD sent",
      "  wrote out/checkout.daily.2026-11-17.slack.json",
    ]);
  });

  it("joins the parts of an indented line to it, not to the line above", () => {
    const line = `  ✗ slack:C0123ABCD failed: ${"an error that says a great deal ".repeat(4).trim()}`;
    const printed = ["checkout.daily.2026-11-17: 3 projects", ...fitLine(line, 80)].join("\n");
    expect(unwrapLines(printed)).toBe(`checkout.daily.2026-11-17: 3 projects\n${line}`);
  });
});
