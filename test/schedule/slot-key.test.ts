import { describe, expect, it } from "vitest";
import { periodsForFire } from "../../src/periods/periods-for-fire.js";
import { nextFires } from "../../src/schedule/cron-fires.js";
import { slotKey } from "../../src/schedule/slot-key.js";

describe("slotKey", () => {
  it.each([
    ["one day", { start: "2026-11-15", end: "2026-11-15" }, "checkout.daily.2026-11-15"],
    ["a week", { start: "2026-11-09", end: "2026-11-15" }, "checkout.daily.2026-11-09_2026-11-15"],
    ["a month", { start: "2026-10-01", end: "2026-10-31" }, "checkout.daily.2026-10-01_2026-10-31"],
  ])("names %s by its dates", (_, period, want) => {
    expect(slotKey("checkout", "daily", period)).toBe(want);
  });

  it("two fires that cover the same period are one slot", () => {
    // Twice a day, each reporting the previous day: both fires of a day share a key.
    const zone = "Europe/Berlin";
    const fires = nextFires("0 9,17 * * *", zone, new Date("2026-03-28T00:00:00Z"), 4);
    const keys = fires.map((fireAt) => {
      const { current } = periodsForFire({
        fireAt,
        timezone: zone,
        kind: "previous_day",
        compareTo: "previous_period",
        weekStartsOn: 1,
      });
      return slotKey("checkout", "daily", current);
    });
    expect(keys).toEqual([
      "checkout.daily.2026-03-27",
      "checkout.daily.2026-03-27",
      "checkout.daily.2026-03-28",
      "checkout.daily.2026-03-28",
    ]);
  });
});
