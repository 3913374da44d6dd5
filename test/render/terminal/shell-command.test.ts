import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { commandLines, shellWord } from "../../../src/render/terminal/shell-command.js";

// The commands the demo prints for a reader to paste: however they wrap, a shell must read
// back the words they were made of, a path with spaces or quotes included.

/** The words bash reads from `lines` pasted as they are printed. */
function wordsBashReads(lines: readonly string[]): string[] {
  const script = `set -- ${lines.join("\n")}\nprintf '%s\\0' "$@"`;
  return execFileSync("bash", ["-c", script], { encoding: "utf8" }).split("\0").slice(0, -1);
}

describe("a command printed for pasting", () => {
  const paths = [
    "config/demo.yaml",
    "/tmp/inst dir/node_modules/insights-reporter/config/demo.yaml",
    "/home/o'brien/my  checkout/config/demo.yaml",
  ];
  for (const path of paths) {
    it(`reads back as its words, wrapped at 40 columns and at 80: ${path}`, () => {
      const words = ["npx", "insights-reporter", "preview", "--config", path, "--team", "checkout"];
      for (const width of [40, 80]) {
        const lines = commandLines(words.map(shellWord).join(" "), width);
        expect(wordsBashReads(lines)).toEqual(words);
      }
    });
  }

  it("leaves a plain word unquoted", () => {
    expect(shellWord("config/demo.yaml")).toBe("config/demo.yaml");
  });
});
