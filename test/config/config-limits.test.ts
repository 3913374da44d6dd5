import { describe, expect, it } from "vitest";
import { tryParseConfigText } from "../../src/config/load-config.js";
import { configText, fullEnv, issueLines } from "./config-builders.js";

/**
 * A config is small, hand-written text. One that would take the parser minutes and gigabytes
 * (an alias bomb, a 50 MB file) is refused as a config problem, quickly.
 */

/** Nine levels of nine aliases each: a few hundred bytes that expand to 9^9 strings. */
function aliasBomb(): string {
  const lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i < 9; i++)
    lines.push(
      `a${i}: &a${i} [${Array(9)
        .fill(`*a${i - 1}`)
        .join(",")}]`,
    );
  return `${lines.join("\n")}\n`;
}

const parse = (text: string, maxConfigBytes?: number) =>
  tryParseConfigText(text, "test.yaml", {
    env: fullEnv(),
    ...(maxConfigBytes === undefined ? {} : { maxConfigBytes }),
  });

describe("config limits", () => {
  it("refuses an alias bomb as a config problem saying it uses too many YAML aliases", () => {
    const lines = issueLines(parse(aliasBomb()));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^the config uses too many YAML aliases .* — /);
  });

  it("still loads a config that shares a value through an alias", () => {
    const text = configText()
      .replace("channel: C0123ABCD", "channel: &main C0123ABCD")
      .replace("channel: C0ALERTS", "channel: *main");
    expect(text).toContain("*main");
    expect(parse(text)).toHaveProperty("config");
  });

  it("refuses a config over the size limit before parsing it, naming the limit", () => {
    // Not YAML at all past the limit: a parsed file would report syntax errors instead.
    const text = `${configText()}${"{[: ".repeat(1000)}`;
    expect(issueLines(parse(text, 2_000))).toEqual([
      expect.stringMatching(/^the config is [\d.]+ kB, over the 2 kB a config may be — /),
    ]);
  });

  it("refuses a 50 MB config at the default 1 MB limit in well under a second", () => {
    const team = "  - name: t\n    timezone: UTC\n    projects: [{ id: abcdefg }]\n";
    const text = `teams:\n${team.repeat(Math.ceil(50_000_000 / team.length))}`;
    const started = performance.now();
    const lines = issueLines(parse(text));
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(lines).toEqual([expect.stringMatching(/^the config is 50\.0 MB, over the 1 MB /)]);
  });
});
