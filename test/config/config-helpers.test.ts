import { describe, expect, it } from "vitest";
import { closestMatch } from "../../src/config/closest-match.js";
import { compareConfigPaths, formatConfigPath } from "../../src/config/config-path.js";
import { describeZoneProblem } from "../../src/config/describe-zone-problem.js";
import { parseDuration } from "../../src/config/parse-duration.js";

describe("formatConfigPath", () => {
  it.each([
    [["teams", 1, "digests", 0, "schedule"], "teams[1].digests[0].schedule"],
    [["api", "url"], "api.url"],
    [[], ""],
  ])("writes %j as %s", (path, expected) => {
    expect(formatConfigPath(path)).toBe(expected);
  });
});

describe("compareConfigPaths", () => {
  it("orders parents first, list items by index and keys alphabetically", () => {
    const paths = [
      "teams[10].name",
      "teams[2].name",
      "teams[2]",
      "api.url",
      "",
      "teams[2].alerts[0]",
    ];
    expect(paths.sort(compareConfigPaths)).toEqual([
      "",
      "api.url",
      "teams[2]",
      "teams[2].alerts[0]",
      "teams[2].name",
      "teams[10].name",
    ]);
  });
});

describe("closestMatch", () => {
  const keys = ["name", "schedule", "period", "compare_to", "catch_up", "slack", "email"];
  it.each([
    ["shedule", "schedule"],
    ["shcedule", "schedule"],
    ["Schedule", "schedule"],
    ["sched", "schedule"],
    ["catchup", "catch_up"],
    ["colour", null],
    ["x", null],
  ])("suggests for %s: %s", (word, expected) => {
    expect(closestMatch(word, keys)).toBe(expected);
  });
});

describe("parseDuration", () => {
  it.each([
    ["30s", 30_000],
    ["6h", 21_600_000],
    ["90 m", 5_400_000],
    ["1d", 86_400_000],
  ])("reads %s as %d ms", (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });
});

describe("describeZoneProblem", () => {
  it.each(["Europe/Berlin", "UTC", "Etc/UTC", "US/Pacific", "Asia/Kolkata"])(
    "accepts %s",
    (zone) => {
      expect(describeZoneProblem(zone)).toBeNull();
    },
  );

  it.each([
    ["utc", 'did you mean "UTC"?'],
    ["America/new_york", 'did you mean "America/New_York"?'],
    ["Europe/Berlinn", 'did you mean "Europe/Berlin"?'],
    ["CEST", 'use an IANA name such as "Europe/Berlin"'],
  ])("refuses %s: %s", (zone, says) => {
    expect(describeZoneProblem(zone)).toContain(says);
  });
});
