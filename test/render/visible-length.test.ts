import stringWidth from "string-width";
import { describe, expect, it } from "vitest";
import { visibleLength } from "../../src/render/terminal/terminal-style.js";

// visibleLength counts Latin and Greek text, dashes, arrows, math signs and bars itself and asks string-width for the rest:
// both ways must give string-width's answer.

describe("visibleLength", () => {
  it("counts every character of the ranges it counts itself as string-width does", () => {
    const ranges: Array<[number, number]> = [
      [0x20, 0x7e],
      [0xa0, 0x2ff],
      [0x370, 0x3ff],
      [0x2010, 0x2027],
      [0x2190, 0x22ff],
      [0x2500, 0x259f],
      [0x2713, 0x2713],
    ];
    for (const [from, to] of ranges) {
      for (let code = from; code <= to; code++) {
        const text = String.fromCodePoint(code);
        expect(visibleLength(`a${text}`), `U+${code.toString(16)}`).toBe(stringWidth(`a${text}`));
      }
    }
  });

  it.each([
    ["wide characters", "日本語 tests"],
    ["an emoji", "flaky 🔥 rate"],
    ["ANSI codes", "\x1b[32mgreen\x1b[39m"],
    ["a combining mark", "Cafe\u0301"],
    ["a soft hyphen", "co\u00adop"],
    ["a line separator", "a\u2028b"],
  ])("gives string-width's answer for %s", (_, text) => {
    expect(visibleLength(text)).toBe(stringWidth(text));
  });
});
