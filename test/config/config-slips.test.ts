import { describe, expect, it } from "vitest";
import { checkConfigCommand } from "../../src/commands/check-config.js";
import { parseConfigText } from "../../src/config/load-config.js";
import { ConfigError } from "../../src/errors.js";
import { configText, fullEnv, issueLines, parse } from "./config-builders.js";

// The slips a person makes editing the config by hand, each answered with the fix at the place
// it is made: the line in the file, the team and the digest by name.

/** The valid test config with its first digest's slack destination written as `slackLines`. */
function withSlack(slackLines: string): string {
  const text = configText({ "teams[0].digests[0].slack": { channel: "C0123ABCD" } });
  return text.replace(/( +)slack:\n +channel: C0123ABCD\n/, (_, indent: string) =>
    slackLines
      .split("\n")
      .map((l) => `${indent}${l}`)
      .join("\n")
      .concat("\n"),
  );
}

function lineOf(text: string, fragment: string): number {
  return text.split("\n").findIndex((l) => l.includes(fragment)) + 1;
}

function errorMessage(text: string): string {
  try {
    parseConfigText(text, "reporter.yaml", { env: fullEnv() });
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error("expected the config to be refused");
}

describe("an unquoted #channel", () => {
  it("in a block mapping: says # starts a comment, with the line, not that a value is missing", () => {
    const text = withSlack("slack:\n  channel: #qa\n  attach_xlsx: true");
    expect(issueLines(parse(text))).toEqual([
      `teams[0].digests[0].slack.channel: \`#\` starts a comment in YAML — quote it: "#qa" (line ${lineOf(text, "#qa")})`,
    ]);
  });

  it("in a flow mapping: the same advice at its line and column, not a flow-map complaint", () => {
    const text = withSlack("slack: { channel: #qa, attach_xlsx: false }");
    const line = lineOf(text, "#qa");
    const column = (text.split("\n")[line - 1] ?? "").indexOf("#qa") + 1;
    expect(issueLines(parse(text))).toEqual([
      `YAML syntax error at ${line}:${column}: \`#\` starts a comment in YAML — quote it: "#qa"`,
    ]);
  });

  it("leaves real comments after a key alone", () => {
    const text = withSlack("slack: # where the digest goes\n  channel: C0123ABCD # the id");
    expect("config" in parse(text)).toBe(true);
  });

  it("quoted, it loads, and check-config notes the scope it needs and that a rename breaks it", async () => {
    const text = withSlack('slack: { channel: "#qa" }');
    const config = parseConfigText(text, "reporter.yaml", { env: fullEnv() });
    const lines: string[] = [];
    await checkConfigCommand({ config, now: new Date("2026-10-23T12:00:00Z"), width: 1_000 }, (l) =>
      lines.push(l),
    );
    const note = lines.find((l) => l.includes('"#qa"'));
    expect(note).toMatch(/^ {2}note: checkout\/daily posts to "#qa" by name/);
    expect(note).toContain("channels:read");
    expect(note).toMatch(/renam/);
    expect(note).toContain("channel ID");
  });
});

describe("where a problem is", () => {
  it("names the team and the digest beside their positions", () => {
    const text = configText({ "teams[1].digests[0].schedule": "0 9 * * 1-" });
    expect(errorMessage(text)).toContain(
      "reporter.yaml: teams[1] (payments).digests[0] (daily).schedule:",
    );
  });

  it("names an alert and a project too", () => {
    const text = configText({
      "teams[0].alerts[0].warn_at": "three",
      "teams[0].projects[1].branch": 7,
    });
    const message = errorMessage(text);
    expect(message).toContain("teams[0] (checkout).alerts[0] (flaky-rate).warn_at:");
    expect(message).toContain("teams[0] (checkout).projects[1] (qwhtzrn).branch:");
  });

  it("says what is wrong in a cron field in words, not in the parser's", () => {
    const message = errorMessage(configText({ "teams[1].digests[0].schedule": "0 9 * * 1-" }));
    expect(message).toContain('day-of-week "1-": the range "1-" lacks its end');
    expect(message).not.toMatch(/constraint error|NaN/);
  });
});
