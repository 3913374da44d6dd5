import { describe, expect, it } from "vitest";
import { unreadableYaml } from "../../src/config/parse-yaml-text.js";
import { issueLines, parse } from "./config-builders.js";

describe("YAML syntax errors", () => {
  it("gives the line and column of the problem", () => {
    const text = "api:\n  url: x\n  key: a: b\nteams: []\n";
    expect(issueLines(parse(text))).toEqual([
      "YAML syntax error at 3:8: Nested mappings are not allowed in compact mappings",
    ]);
  });

  it("reports a duplicate key where it repeats", () => {
    const text = "api:\n  url: a\n  url: b\n";
    expect(issueLines(parse(text))).toEqual(["YAML syntax error at 3:3: Map keys must be unique"]);
  });

  it("explains the unquoted cron that YAML reads as an alias", () => {
    const text = "teams:\n  - digests:\n      - schedule: */15 * * * *\n";
    const lines = issueLines(parse(text));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^YAML syntax error at 3:\d+: .*a value starting with \* must be quoted/,
    );
  });

  it("never quotes the offending source line, which may hold a secret", () => {
    const text = "api:\n  key: 'sk-live-do-not-print\n";
    const lines = issueLines(parse(text));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join("\n")).not.toContain("sk-live-do-not-print");
  });
});

describe("YAML that parses but cannot become data", () => {
  it("names an alias whose anchor is set nowhere above it, with its line", () => {
    const text = "api:\n  url: *base\nteams: []\n";
    expect(issueLines(parse(text))).toEqual([
      "YAML alias *base at line 2 has no anchor &base before it — set it above (e.g. &base on the value to share), or write the value out",
    ]);
  });

  it("names a merge key whose value is not a mapping, with its line", () => {
    for (const value of ["5", "[1, 2]", "[*a, 3]"]) {
      const text = `x: &a { k: v }\napi:\n  <<: ${value}\n`;
      const lines = issueLines(parse(text));
      expect(lines, value).toHaveLength(1);
      expect(lines[0]).toMatch(/^YAML merge key << at line 3 must be followed by a mapping/);
    }
  });

  it("names an alias inside the value it names, which would contain itself, with its line", () => {
    for (const text of [
      "api: &a\n  url: *a\nteams: []\n",
      "teams: &t\n  - name: x\n    projects: *t\n",
      "api: &a\n  <<: *a\nteams: []\n",
    ]) {
      const lines = issueLines(parse(text));
      expect(lines, text).toHaveLength(1);
      expect(lines[0], text).toMatch(
        /^YAML alias \*[at] at line \d is inside the value &[at] it names, which would then contain itself — move the alias out of &[at], or write the value out$/,
      );
    }
  });

  it("still merges mappings, an alias of one and a list of them", () => {
    const text = "a: &a { url: u }\nb: &b { key: k }\napi:\n  <<: [*a, *b]\nteams: []\n";
    expect(issueLines(parse(text)).join("\n")).not.toMatch(/merge|alias/);
  });
});

describe("YAML the library cannot convert", () => {
  it("says what to write instead", () => {
    expect(unreadableYaml(new Error("Set items must all have null values"))).toBe(
      "the YAML cannot be read as data: Set items must all have null values — write that part as plain keys, lists and quoted values, without YAML tags (!!set, !!omap, …) or aliases (*name)",
    );
  });
});
