import { describe, expect, it } from "vitest";
import type { Weekday } from "../../src/config/types.js";
import { UnknownTimezoneError, UsageError } from "../../src/errors.js";
import { periodsForFire } from "../../src/periods/periods-for-fire.js";
import type { CompareTo, PeriodKind } from "../../src/periods/types.js";

interface Row {
  name: string;
  fireAt: string;
  timezone: string;
  kind: PeriodKind;
  compareTo?: CompareTo;
  weekStartsOn?: Weekday;
  current: [string, string];
  prior: [string, string];
}

const rows: Row[] = [
  {
    name: "Auckland 08:30 on 16 Nov (19:30 on 15 Nov UTC) reports 15 Nov",
    fireAt: "2026-11-15T19:30:00Z",
    timezone: "Pacific/Auckland",
    kind: "previous_day",
    current: ["2026-11-15", "2026-11-15"],
    prior: ["2026-11-14", "2026-11-14"],
  },
  {
    name: "Auckland daily compared with the same weekday a week earlier",
    fireAt: "2026-11-15T19:30:00Z",
    timezone: "Pacific/Auckland",
    kind: "previous_day",
    compareTo: "same_period_last_week",
    current: ["2026-11-15", "2026-11-15"],
    prior: ["2026-11-08", "2026-11-08"],
  },
  {
    name: "New York 23:30 local is still the 15th though UTC is on the 16th",
    fireAt: "2026-11-16T04:30:00Z",
    timezone: "America/New_York",
    kind: "previous_day",
    current: ["2026-11-14", "2026-11-14"],
    prior: ["2026-11-13", "2026-11-13"],
  },
  {
    name: "New York the morning after DST starts reports the 23-hour day",
    fireAt: "2026-03-09T13:00:00Z",
    timezone: "America/New_York",
    kind: "previous_day",
    current: ["2026-03-08", "2026-03-08"],
    prior: ["2026-03-07", "2026-03-07"],
  },
  {
    name: "New York the morning after DST ends reports the 25-hour day",
    fireAt: "2026-11-02T14:00:00Z",
    timezone: "America/New_York",
    kind: "previous_day",
    current: ["2026-11-01", "2026-11-01"],
    prior: ["2026-10-31", "2026-10-31"],
  },
  {
    name: "Berlin week over the DST end (25 Oct 2026) is still Mon–Sun",
    fireAt: "2026-10-26T08:00:00Z",
    timezone: "Europe/Berlin",
    kind: "previous_week",
    current: ["2026-10-19", "2026-10-25"],
    prior: ["2026-10-12", "2026-10-18"],
  },
  {
    name: "Sydney last 7 days over the DST start (4 Oct 2026)",
    fireAt: "2026-10-06T22:00:00Z",
    timezone: "Australia/Sydney",
    kind: "last_7_days",
    current: ["2026-09-30", "2026-10-06"],
    prior: ["2026-09-23", "2026-09-29"],
  },
  {
    name: "Kolkata 23:59 local (+5:30) reports the day before",
    fireAt: "2026-11-15T18:29:00Z",
    timezone: "Asia/Kolkata",
    kind: "previous_day",
    current: ["2026-11-14", "2026-11-14"],
    prior: ["2026-11-13", "2026-11-13"],
  },
  {
    name: "Kolkata midnight local starts a new day",
    fireAt: "2026-11-15T18:30:00Z",
    timezone: "Asia/Kolkata",
    kind: "previous_day",
    current: ["2026-11-15", "2026-11-15"],
    prior: ["2026-11-14", "2026-11-14"],
  },
  {
    name: "Kathmandu (+5:45) one minute before local midnight",
    fireAt: "2026-11-15T18:14:00Z",
    timezone: "Asia/Kathmandu",
    kind: "previous_day",
    current: ["2026-11-14", "2026-11-14"],
    prior: ["2026-11-13", "2026-11-13"],
  },
  {
    name: "Kathmandu local midnight",
    fireAt: "2026-11-15T18:15:00Z",
    timezone: "Asia/Kathmandu",
    kind: "previous_day",
    current: ["2026-11-15", "2026-11-15"],
    prior: ["2026-11-14", "2026-11-14"],
  },
  {
    name: "Kiritimati (+14) 00:30 on 1 Jan is already the new year: December",
    fireAt: "2026-12-31T10:30:00Z",
    timezone: "Pacific/Kiritimati",
    kind: "previous_month",
    current: ["2026-12-01", "2026-12-31"],
    prior: ["2026-11-01", "2026-11-30"],
  },
  {
    name: "Pago Pago (−11) at the same instant is still 31 Dec: November",
    fireAt: "2026-12-31T10:30:00Z",
    timezone: "Pacific/Pago_Pago",
    kind: "previous_month",
    current: ["2026-11-01", "2026-11-30"],
    prior: ["2026-10-01", "2026-10-31"],
  },
  {
    name: "March digest compares with February, not the 31 days before",
    fireAt: "2026-04-01T07:00:00Z",
    timezone: "Europe/Berlin",
    kind: "previous_month",
    current: ["2026-03-01", "2026-03-31"],
    prior: ["2026-02-01", "2026-02-28"],
  },
  {
    name: "leap February 2028 has 29 days",
    fireAt: "2028-03-05T09:00:00Z",
    timezone: "Etc/UTC",
    kind: "previous_month",
    current: ["2028-02-01", "2028-02-29"],
    prior: ["2028-01-01", "2028-01-31"],
  },
  {
    name: "last 28 days ending on leap day 2028",
    fireAt: "2028-03-01T09:00:00Z",
    timezone: "Etc/UTC",
    kind: "last_28_days",
    current: ["2028-02-02", "2028-02-29"],
    prior: ["2028-01-05", "2028-02-01"],
  },
  {
    name: "week starting Monday, fired on a Monday",
    fireAt: "2026-11-16T08:00:00Z",
    timezone: "Europe/Berlin",
    kind: "previous_week",
    current: ["2026-11-09", "2026-11-15"],
    prior: ["2026-11-02", "2026-11-08"],
  },
  {
    name: "week starting Monday, fired on a Sunday: the week before this one",
    fireAt: "2026-11-15T08:00:00Z",
    timezone: "Europe/Berlin",
    kind: "previous_week",
    current: ["2026-11-02", "2026-11-08"],
    prior: ["2026-10-26", "2026-11-01"],
  },
  {
    name: "week starting Sunday, fired on a Sunday",
    fireAt: "2026-11-15T08:00:00Z",
    timezone: "America/New_York",
    kind: "previous_week",
    weekStartsOn: 7,
    current: ["2026-11-08", "2026-11-14"],
    prior: ["2026-11-01", "2026-11-07"],
  },
  {
    name: "week starting Sunday, fired on a Saturday",
    fireAt: "2026-11-14T15:00:00Z",
    timezone: "America/New_York",
    kind: "previous_week",
    weekStartsOn: 7,
    current: ["2026-11-01", "2026-11-07"],
    prior: ["2026-10-25", "2026-10-31"],
  },
  {
    name: "weekly with same_period_last_week is the week before",
    fireAt: "2026-11-16T08:00:00Z",
    timezone: "Europe/Berlin",
    kind: "previous_week",
    compareTo: "same_period_last_week",
    current: ["2026-11-09", "2026-11-15"],
    prior: ["2026-11-02", "2026-11-08"],
  },
  {
    name: "year boundary: last 7 days over New Year",
    fireAt: "2027-01-03T09:00:00Z",
    timezone: "Europe/Berlin",
    kind: "last_7_days",
    current: ["2026-12-27", "2027-01-02"],
    prior: ["2026-12-20", "2026-12-26"],
  },
  {
    // 00:30 on 1 April in Berlin is still 31 March in UTC; March's clocks went forward on the 29th.
    name: "quarter fired just after midnight on 1 April in Berlin reports Q1, whose days cross DST",
    fireAt: "2026-03-31T22:30:00Z",
    timezone: "Europe/Berlin",
    kind: "previous_quarter",
    current: ["2026-01-01", "2026-03-31"],
    prior: ["2025-10-01", "2025-12-31"],
  },
  {
    name: "quarter fired at 23:30 on 31 March in New York is still in Q1: it reports Q4",
    fireAt: "2026-04-01T03:30:00Z",
    timezone: "America/New_York",
    kind: "previous_quarter",
    current: ["2025-10-01", "2025-12-31"],
    prior: ["2025-07-01", "2025-09-30"],
  },
  {
    name: "quarter against the same quarter last year",
    fireAt: "2026-04-01T07:00:00Z",
    timezone: "Europe/Berlin",
    kind: "previous_quarter",
    compareTo: "same_period_last_year",
    current: ["2026-01-01", "2026-03-31"],
    prior: ["2025-01-01", "2025-03-31"],
  },
  {
    name: "February against last year's February, a leap year's 29 days",
    fireAt: "2025-03-02T08:00:00Z",
    timezone: "Europe/Berlin",
    kind: "previous_month",
    compareTo: "same_period_last_year",
    current: ["2025-02-01", "2025-02-28"],
    prior: ["2024-02-01", "2024-02-29"],
  },
  {
    name: "a week against the same weekdays 52 weeks earlier",
    fireAt: "2026-11-16T08:00:00Z",
    timezone: "Europe/Berlin",
    kind: "previous_week",
    compareTo: "same_period_last_year",
    current: ["2026-11-09", "2026-11-15"],
    prior: ["2025-11-10", "2025-11-16"],
  },
];

describe("median_of_4_weeks", () => {
  const fire = (kind: PeriodKind) =>
    periodsForFire({
      fireAt: new Date("2026-11-25T08:00:00Z"), // a Wednesday, in Berlin
      timezone: "Europe/Berlin",
      kind,
      compareTo: "median_of_4_weeks",
      weekStartsOn: 1,
    });

  it("a daily digest's baseline is the same weekday in each of the 4 previous weeks", () => {
    const pair = fire("previous_day");
    expect(pair.current).toEqual({ start: "2026-11-24", end: "2026-11-24" });
    expect(pair.baseline).toEqual(
      ["2026-11-17", "2026-11-10", "2026-11-03", "2026-10-27"].map((d) => ({ start: d, end: d })),
    );
    expect(pair.prior).toEqual({ start: "2026-10-27", end: "2026-11-17" });
  });

  it("a weekly digest's baseline is each of the 4 previous weeks", () => {
    const pair = fire("previous_week");
    expect(pair.baseline).toEqual([
      { start: "2026-11-09", end: "2026-11-15" },
      { start: "2026-11-02", end: "2026-11-08" },
      { start: "2026-10-26", end: "2026-11-01" },
      { start: "2026-10-19", end: "2026-10-25" },
    ]);
    expect(pair.prior).toEqual({ start: "2026-10-19", end: "2026-11-15" });
  });

  it("is refused for a period longer than a week, naming the fix", () => {
    expect(() => fire("previous_month")).toThrow(
      /median_of_4_weeks needs a period of at most 7 days.*compare_to: previous_period/,
    );
  });

  it("has no baseline for other comparisons", () => {
    const pair = periodsForFire({
      fireAt: new Date("2026-11-25T08:00:00Z"),
      timezone: "Europe/Berlin",
      kind: "previous_day",
      compareTo: "previous_period",
      weekStartsOn: 1,
    });
    expect(pair.baseline).toBeUndefined();
  });
});

describe("periodsForFire", () => {
  it.each(rows)("$name", (row) => {
    const pair = periodsForFire({
      fireAt: new Date(row.fireAt),
      timezone: row.timezone,
      kind: row.kind,
      compareTo: row.compareTo ?? "previous_period",
      weekStartsOn: row.weekStartsOn ?? 1,
    });
    expect(pair).toEqual({
      kind: row.kind,
      compareTo: row.compareTo ?? "previous_period",
      current: { start: row.current[0], end: row.current[1] },
      prior: { start: row.prior[0], end: row.prior[1] },
    });
  });

  it.each([
    // "0 9 * * 1-5" in Berlin: Monday's fire follows Friday's and covers Fri, Sat and Sun.
    [
      "Monday after Friday",
      "2026-11-23T08:00:00Z",
      "2026-11-20T08:00:00Z",
      ["2026-11-20", "2026-11-22"],
      ["2026-11-13", "2026-11-15"],
    ],
    [
      "Tuesday after Monday",
      "2026-11-24T08:00:00Z",
      "2026-11-23T08:00:00Z",
      ["2026-11-23", "2026-11-23"],
      ["2026-11-16", "2026-11-16"],
    ],
    [
      "the first fire ever: yesterday",
      "2026-11-24T08:00:00Z",
      null,
      ["2026-11-23", "2026-11-23"],
      ["2026-11-16", "2026-11-16"],
    ],
    [
      "a second fire the same day: yesterday",
      "2026-11-24T16:00:00Z",
      "2026-11-24T08:00:00Z",
      ["2026-11-23", "2026-11-23"],
      ["2026-11-16", "2026-11-16"],
    ],
    // A monthly cron: the days since last month's fire, against the equal span before.
    [
      "a month since the previous fire",
      "2026-12-01T08:00:00Z",
      "2026-11-01T08:00:00Z",
      ["2026-11-01", "2026-11-30"],
      ["2026-10-02", "2026-10-31"],
    ],
  ] as const)("since_previous_run: %s", (_name, fireAt, previous, current, prior) => {
    const pair = periodsForFire({
      fireAt: new Date(fireAt),
      timezone: "Europe/Berlin",
      kind: "since_previous_run",
      compareTo: "previous_period",
      weekStartsOn: 1,
      previousFireAt: previous === null ? null : new Date(previous),
    });
    expect(pair.current).toEqual({ start: current[0], end: current[1] });
    expect(pair.prior).toEqual({ start: prior[0], end: prior[1] });
  });

  it.each(["previous_month", "last_28_days"] as const)(
    "refuses same_period_last_week for %s, naming the fix",
    (kind) => {
      const fire = () =>
        periodsForFire({
          fireAt: new Date("2026-11-16T08:00:00Z"),
          timezone: "Europe/Berlin",
          kind,
          compareTo: "same_period_last_week",
          weekStartsOn: 1,
        });
      expect(fire).toThrow(UsageError);
      expect(fire).toThrow(/at most 7 days.*compare_to: previous_period/);
    },
  );

  it("refuses an unknown timezone with a clear error", () => {
    const fire = () =>
      periodsForFire({
        fireAt: new Date("2026-11-16T08:00:00Z"),
        timezone: "Mars/Olympus_Mons",
        kind: "previous_day",
        compareTo: "previous_period",
        weekStartsOn: 1,
      });
    expect(fire).toThrow(UnknownTimezoneError);
    expect(fire).toThrow(/"Mars\/Olympus_Mons" is not a recognised IANA name/);
  });
});
