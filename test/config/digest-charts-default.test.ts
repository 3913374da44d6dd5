import { describe, expect, it } from "vitest";
import { configText, parse } from "./config-builders.js";

// Charts are on by default for weekly and longer digests, where a trend needs weeks to read;
// a daily digest takes them when asked (`charts: true` or `charts: { window }`); `charts: false`
// turns them off for any digest.

function chartsOf(digest: Record<string, unknown>): unknown {
  const edits = Object.fromEntries(
    Object.entries(digest).map(([key, value]) => [`teams[0].digests[0].${key}`, value]),
  );
  const result = parse(configText(edits));
  if (!("config" in result)) throw new Error(JSON.stringify(result.issues));
  return result.config.teams[0]?.digests[0]?.charts;
}

describe("a digest's charts", () => {
  it.each([
    ["previous_week", 56],
    ["last_7_days", 56],
    ["previous_month", 112],
    ["last_28_days", 112],
    ["previous_quarter", 182],
  ])("are on by default for a %s digest, over its default window", (period, windowDays) => {
    expect(chartsOf({ period })).toEqual({ windowDays });
  });

  it.each(["previous_day", "since_previous_run"])(
    "are off by default for a %s digest",
    (period) => {
      expect(chartsOf({ period })).toBeNull();
    },
  );

  it("are on for a daily digest that asks for them, with true or with a window", () => {
    expect(chartsOf({ period: "previous_day", charts: true })).toEqual({ windowDays: 28 });
    expect(chartsOf({ period: "previous_day", charts: { window: "6w" } })).toEqual({
      windowDays: 42,
    });
  });

  it("are off with charts: false, whatever the period", () => {
    expect(chartsOf({ period: "previous_week", charts: false })).toBeNull();
    expect(chartsOf({ period: "previous_day", charts: false })).toBeNull();
  });
});
