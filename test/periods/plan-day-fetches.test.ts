import fc from "fast-check";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { addDays } from "../../src/periods/calendar-date.js";
import { isFinalDay, planDayFetches, recentWindow } from "../../src/periods/plan-day-fetches.js";

// Now: 2026-11-16 10:00 UTC; settle after 48 h, so the window is 2026-11-12 … 2026-11-16.
const NOW = Date.parse("2026-11-16T10:00:00Z");
const H48 = 48 * 3_600_000;
const FINAL = Date.parse("2026-11-15T00:00:00Z"); // settled for days up to 2026-11-12
const at = (iso: string) => Date.parse(iso);

function held(dates: string[], fetchedAt = FINAL): Map<string, number> {
  return new Map(dates.map((date) => [date, fetchedAt]));
}

function plan(start: string, end: string, heldDays: Map<string, number>, zone = "Etc/UTC") {
  return planDayFetches({
    start,
    end,
    timezone: zone,
    held: heldDays,
    nowMs: NOW,
    settleAfterMs: H48,
  });
}

describe("planDayFetches", () => {
  it.each([
    {
      name: "nothing held, old range: one range",
      start: "2026-10-01",
      end: "2026-10-07",
      held: held([]),
      want: [{ start: "2026-10-01", end: "2026-10-07" }],
    },
    {
      name: "every day held final: no request",
      start: "2026-10-01",
      end: "2026-10-03",
      held: held(["2026-10-01", "2026-10-02", "2026-10-03"]),
      want: [],
    },
    {
      name: "holes: one range per run of missing days",
      start: "2026-10-01",
      end: "2026-10-06",
      held: held(["2026-10-01", "2026-10-03", "2026-10-04"]),
      want: [
        { start: "2026-10-02", end: "2026-10-02" },
        { start: "2026-10-05", end: "2026-10-06" },
      ],
    },
    {
      name: "a day held from before it settled is asked again",
      start: "2026-10-01",
      end: "2026-10-02",
      held: new Map([
        ["2026-10-01", at("2026-10-05T00:00:00Z")],
        ["2026-10-02", at("2026-10-03T12:00:00Z")],
      ]),
      want: [{ start: "2026-10-02", end: "2026-10-02" }],
    },
    {
      name: "yesterday, held or not: the whole recent window",
      start: "2026-11-15",
      end: "2026-11-15",
      held: held(["2026-11-15"], at("2026-11-16T09:00:00Z")),
      want: [{ start: "2026-11-12", end: "2026-11-16" }],
    },
    {
      name: "a week reaching into the window: its old part joined to the window",
      start: "2026-11-09",
      end: "2026-11-15",
      held: held([]),
      want: [{ start: "2026-11-09", end: "2026-11-16" }],
    },
    {
      name: "a week whose old days are final: the window alone",
      start: "2026-11-09",
      end: "2026-11-15",
      held: held(["2026-11-09", "2026-11-10", "2026-11-11"]),
      want: [{ start: "2026-11-12", end: "2026-11-16" }],
    },
    {
      name: "a future end is cut at today",
      start: "2026-12-01",
      end: "2026-12-31",
      held: held([]),
      want: [],
    },
  ])("$name", ({ start, end, held: heldDays, want }) => {
    expect(plan(start, end, heldDays)).toEqual(want);
  });

  it("judges days in the requested zone: a day in Auckland ends before the same day in UTC", () => {
    // 2026-11-13 ends 2026-11-13T11:00Z in Auckland (UTC+13): settled 48 h later, at 11-15T11:00Z.
    expect(isFinalDay("2026-11-13", "Pacific/Auckland", at("2026-11-15T12:00:00Z"), H48)).toBe(
      true,
    );
    expect(isFinalDay("2026-11-13", "Etc/UTC", at("2026-11-15T12:00:00Z"), H48)).toBe(false);
  });

  it("keeps days within the window until a fetch after they settled", () => {
    expect(recentWindow(NOW, "Etc/UTC", H48)).toEqual({ start: "2026-11-12", end: "2026-11-16" });
    // The window's oldest day has settled by now: a fetch now makes it final before it leaves.
    expect(isFinalDay("2026-11-12", "Etc/UTC", NOW, H48)).toBe(true);
  });
});

describe("isFinalDay's shortcut", () => {
  it("agrees with the day's end in its zone, from UTC−12 to UTC+14, across DST", () => {
    const zones = [
      "Etc/GMT+12",
      "Pacific/Kiritimati",
      "Europe/Berlin",
      "America/New_York",
      "Asia/Kathmandu",
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.integer({ min: 0, max: 730 }),
        fc.integer({ min: -3 * 86_400_000, max: 5 * 86_400_000 }),
        (zone, offset, afterUtcEnd) => {
          const date = addDays("2025-01-01", offset);
          const utcEnd = Date.parse(`${addDays(date, 1)}T00:00:00Z`);
          const fetchedAt = utcEnd + afterUtcEnd;
          const endsAt = DateTime.fromISO(addDays(date, 1), { zone }).startOf("day").toMillis();
          expect(isFinalDay(date, zone, fetchedAt, H48)).toBe(fetchedAt - endsAt > H48);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
