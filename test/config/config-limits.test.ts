import { describe, expect, it } from "vitest";
import { tryParseConfigText } from "../../src/config/load-config.js";
import { configText, fullEnv, issueLines, parse as parseWith } from "./config-builders.js";

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

function loaded(text: string) {
  const result = parseWith(text);
  if ("issues" in result) throw new Error(issueLines(result).join("\n"));
  return result.config;
}

describe("durations", () => {
  // Each too long by a slip of a unit (25d for 25s) or of the keyboard; each limit is named.
  it.each([
    ["api.timeout", "25d", "at most 10m"],
    ["api.timeout", "11m", "at most 10m"],
    ["state.send_timeout", "2h", "at most 1h"],
    ["history.settle_after", "15d", "at most 14d"],
    ["history.keep", "11y", "at most 10y"],
    ["history.keep", "99999999999d", "at most 10y"],
    ["history.prefetch.ahead", "8d", "at most 7d"],
    ["teams[0].digests[0].catch_up", "99999999999d", "at most 7d"],
    ["teams[0].digests[0].charts.window", "105w", "at most 104w"],
    ["teams[0].alerts[0].catch_up", "8d", "at most 7d"],
    ["teams[0].alerts[0].repeat_every", "31d", "at most 30d"],
    ["msteams.timeout_ms", 2_200_000_000, "must be at most 600000"],
    ["webhook.timeout_ms", 600_001, "must be at most 600000"],
  ])("refuses %s: %s, naming the limit", (path, value, limit) => {
    const lines = issueLines(parse(configText({ [path]: value })));
    expect(
      lines.some(
        (line) => line.includes(`: ${limit}`) && line.includes(path.split(".").at(-1) ?? path),
      ),
      lines.join("\n"),
    ).toBe(true);
  });

  it.each([
    ["api.timeout", "10m"],
    ["state.send_timeout", "1h"],
    ["history.settle_after", "14d"],
    ["history.keep", "10y"],
    ["history.keep", "3660d"],
    ["history.prefetch.ahead", "7d"],
    ["teams[0].digests[0].catch_up", "7d"],
    ["teams[0].digests[0].charts.window", "104w"],
    ["teams[0].alerts[0].repeat_every", "30d"],
    ["webhook.timeout_ms", 600_000],
  ])("accepts %s: %s, its limit", (path, value) => {
    expect(() => loaded(configText({ [path]: value }))).not.toThrow();
  });

  it("keeps every timer a duration becomes under Node's 2^31-1 ms", () => {
    const config = loaded(
      configText({
        "api.timeout": "10m",
        "state.send_timeout": "1h",
        "webhook.timeout_ms": 600_000,
      }),
    );
    for (const ms of [config.api.timeoutMs, config.state.sendTimeoutMs, config.webhook.timeoutMs]) {
      expect(ms).toBeLessThanOrEqual(2 ** 31 - 1);
    }
  });
});
