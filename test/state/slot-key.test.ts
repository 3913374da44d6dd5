import { describe, expect, it } from "vitest";
import { periodsForFire } from "../../src/periods/periods-for-fire.js";
import { slotKey } from "../../src/state/slot-key.js";
import { nextFires } from "../../src/timetable/cron-fires.js";

describe("slotKey", () => {
  it.each([
    ["one day", { start: "2026-11-15", end: "2026-11-15" }, "checkout.daily.2026-11-15"],
    ["a week", { start: "2026-11-09", end: "2026-11-15" }, "checkout.daily.2026-11-09_2026-11-15"],
    ["a month", { start: "2026-10-01", end: "2026-10-31" }, "checkout.daily.2026-10-01_2026-10-31"],
  ])("names %s by its dates", (_, period, want) => {
    expect(slotKey("checkout", "digest", "daily", period)).toBe(want);
  });

  it("an alert's key carries its kind, so it never collides with a digest of the same name", () => {
    const day = { start: "2026-11-15", end: "2026-11-15" };
    expect(slotKey("checkout", "alert", "daily", day)).toBe("checkout.alert.daily.2026-11-15");
    expect(slotKey("checkout", "alert", "daily", day)).not.toBe(
      slotKey("checkout", "digest", "daily", day),
    );
    // A digest called "alert" still has three parts to the alert's four.
    expect(slotKey("checkout", "digest", "alert", day)).toBe("checkout.alert.2026-11-15");
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
      return slotKey("checkout", "digest", "daily", current);
    });
    expect(keys).toEqual([
      "checkout.daily.2026-03-27",
      "checkout.daily.2026-03-27",
      "checkout.daily.2026-03-28",
      "checkout.daily.2026-03-28",
    ]);
  });
});
