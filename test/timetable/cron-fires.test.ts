import { describe, expect, it } from "vitest";
import { UnknownTimezoneError, UsageError } from "../../src/errors.js";
import {
  firesBetween,
  latestFireAtOrBefore,
  nextFires,
  previousFire,
} from "../../src/timetable/cron-fires.js";
import { labels, localLabel } from "./local-label.js";

const at = (iso: string) => new Date(iso);

describe("nextFires across DST changes", () => {
  const cases: { name: string; expr: string; zone: string; after: string; want: string[] }[] = [
    {
      name: "Berlin spring-forward: 02:30 falls in the gap and fires once at 03:00",
      expr: "30 2 * * *",
      zone: "Europe/Berlin",
      after: "2026-03-27T12:00:00Z",
      want: [
        "2026-03-28 02:30 GMT+01:00",
        "2026-03-29 03:00 GMT+02:00",
        "2026-03-30 02:30 GMT+02:00",
      ],
    },
    {
      name: "Berlin fall-back: 02:30 is repeated and fires once, at its first occurrence",
      expr: "30 2 * * *",
      zone: "Europe/Berlin",
      after: "2026-10-24T12:00:00Z",
      want: ["2026-10-25 02:30 GMT+02:00", "2026-10-26 02:30 GMT+01:00"],
    },
    {
      name: "New York spring-forward: 02:30 fires at 03:00 EDT",
      expr: "30 2 * * *",
      zone: "America/New_York",
      after: "2026-03-07T12:00:00Z",
      want: ["2026-03-08 03:00 GMT-04:00", "2026-03-09 02:30 GMT-04:00"],
    },
    {
      name: "New York fall-back: 01:30 fires once, in EDT",
      expr: "30 1 * * *",
      zone: "America/New_York",
      after: "2026-10-31T12:00:00Z",
      want: ["2026-11-01 01:30 GMT-04:00", "2026-11-02 01:30 GMT-05:00"],
    },
    {
      name: "Sydney's April fall-back: 02:30 fires once, in daylight time",
      expr: "30 2 * * *",
      zone: "Australia/Sydney",
      after: "2026-04-04T00:00:00Z",
      want: ["2026-04-05 02:30 GMT+11:00", "2026-04-06 02:30 GMT+10:00"],
    },
    {
      name: "Sydney's October spring-forward: 02:30 fires at 03:00",
      expr: "30 2 * * *",
      zone: "Australia/Sydney",
      after: "2026-10-03T00:00:00Z",
      want: ["2026-10-04 03:00 GMT+11:00", "2026-10-05 02:30 GMT+11:00"],
    },
    {
      name: "a fire at the gap's end and one inside it are one fire",
      expr: "0 2,3 * * *",
      zone: "Europe/Berlin",
      after: "2026-03-27T12:00:00Z",
      want: [
        "2026-03-28 02:00 GMT+01:00",
        "2026-03-28 03:00 GMT+01:00",
        "2026-03-29 03:00 GMT+02:00",
        "2026-03-30 02:00 GMT+02:00",
      ],
    },
    {
      name: "weekdays at 09:00 skip the weekend and follow the DST change",
      expr: "0 9 * * 1-5",
      zone: "Europe/Berlin",
      after: "2026-03-27T09:00:00Z",
      want: [
        "2026-03-30 09:00 GMT+02:00",
        "2026-03-31 09:00 GMT+02:00",
        "2026-04-01 09:00 GMT+02:00",
      ],
    },
    {
      name: "named weekdays are accepted",
      expr: "0 9 * * MON,FRI",
      zone: "America/New_York",
      after: "2026-01-01T00:00:00Z",
      want: [
        "2026-01-02 09:00 GMT-05:00",
        "2026-01-05 09:00 GMT-05:00",
        "2026-01-09 09:00 GMT-05:00",
      ],
    },
    {
      name: "day-of-month and day-of-week both set: either matches, as in cron",
      expr: "0 9 13 * 5",
      zone: "Europe/Berlin",
      after: "2026-02-01T00:00:00Z",
      want: [
        "2026-02-06 09:00 GMT+01:00",
        "2026-02-13 09:00 GMT+01:00",
        "2026-02-20 09:00 GMT+01:00",
      ],
    },
    {
      name: "the first of the month across month ends and Sydney's April change",
      expr: "0 0 1 * *",
      zone: "Australia/Sydney",
      after: "2026-01-20T00:00:00Z",
      want: [
        "2026-02-01 00:00 GMT+11:00",
        "2026-03-01 00:00 GMT+11:00",
        "2026-04-01 00:00 GMT+11:00",
        "2026-05-01 00:00 GMT+10:00",
      ],
    },
    {
      name: "the 31st skips the months without one",
      expr: "0 9 31 * *",
      zone: "Europe/Berlin",
      after: "2026-01-31T09:00:00Z",
      want: ["2026-03-31 09:00 GMT+02:00", "2026-05-31 09:00 GMT+02:00"],
    },
    {
      name: "the last day of the month (L)",
      expr: "0 18 L * *",
      zone: "America/New_York",
      after: "2026-01-15T00:00:00Z",
      want: [
        "2026-01-31 18:00 GMT-05:00",
        "2026-02-28 18:00 GMT-05:00",
        "2026-03-31 18:00 GMT-04:00",
      ],
    },
    {
      name: "a gap at midnight (Santiago) fires at 01:00 the same day",
      expr: "30 0 * * *",
      zone: "America/Santiago",
      after: "2026-09-05T12:00:00Z",
      want: ["2026-09-06 01:00 GMT-03:00", "2026-09-07 00:30 GMT-03:00"],
    },
  ];

  it.each(cases)("$name", ({ expr, zone, after, want }) => {
    expect(labels(nextFires(expr, zone, at(after), want.length), zone)).toEqual(want);
  });

  it("is strictly after `after`, even when `after` is a fire", () => {
    const fires = nextFires("0 9 * * *", "Europe/Berlin", at("2026-06-01T07:00:00Z"), 1);
    expect(fires).toEqual([at("2026-06-02T07:00:00Z")]);
  });

  it("returns nothing for a count of zero", () => {
    expect(nextFires("* * * * *", "UTC", at("2026-06-01T07:00:00Z"), 0)).toEqual([]);
  });

  it("finds a fire years ahead (29 February)", () => {
    const fires = nextFires("0 0 29 2 *", "UTC", at("2026-01-01T00:00:00Z"), 2);
    expect(fires).toEqual([at("2028-02-29T00:00:00Z"), at("2032-02-29T00:00:00Z")]);
  });
});

describe("firesBetween", () => {
  it("'*/15' through Berlin's spring-forward gap: the gap's fires collapse into 03:00", () => {
    const fires = firesBetween(
      "*/15 * * * *",
      "Europe/Berlin",
      at("2026-03-29T00:40:00Z"),
      at("2026-03-29T01:31:00Z"),
    );
    expect(labels(fires, "Europe/Berlin")).toEqual([
      "2026-03-29 01:45 GMT+01:00",
      "2026-03-29 03:00 GMT+02:00",
      "2026-03-29 03:15 GMT+02:00",
      "2026-03-29 03:30 GMT+02:00",
    ]);
  });

  it("'*/15' through Berlin's repeated hour fires each quarter once", () => {
    const fires = firesBetween(
      "*/15 * * * *",
      "Europe/Berlin",
      at("2026-10-25T00:20:00Z"),
      at("2026-10-25T02:20:00Z"),
    );
    expect(labels(fires, "Europe/Berlin")).toEqual([
      "2026-10-25 02:30 GMT+02:00",
      "2026-10-25 02:45 GMT+02:00",
      "2026-10-25 03:00 GMT+01:00",
      "2026-10-25 03:15 GMT+01:00",
    ]);
  });

  it("hourly through New York's two changes: one fire per wall-clock hour that exists", () => {
    const spring = firesBetween(
      "0 * * * *",
      "America/New_York",
      at("2026-03-08T05:30:00Z"),
      at("2026-03-08T09:00:00Z"),
    );
    expect(labels(spring, "America/New_York")).toEqual([
      "2026-03-08 01:00 GMT-05:00",
      "2026-03-08 03:00 GMT-04:00",
      "2026-03-08 04:00 GMT-04:00",
      "2026-03-08 05:00 GMT-04:00",
    ]);
    const fall = firesBetween(
      "0 * * * *",
      "America/New_York",
      at("2026-11-01T03:30:00Z"),
      at("2026-11-01T08:00:00Z"),
    );
    expect(labels(fall, "America/New_York")).toEqual([
      "2026-11-01 00:00 GMT-04:00",
      "2026-11-01 01:00 GMT-04:00",
      "2026-11-01 02:00 GMT-05:00",
      "2026-11-01 03:00 GMT-05:00",
    ]);
  });

  it("includes a fire exactly at the end and excludes one exactly at the start", () => {
    const fires = firesBetween(
      "0 9 * * *",
      "UTC",
      at("2026-06-01T09:00:00Z"),
      at("2026-06-03T09:00:00Z"),
    );
    expect(fires).toEqual([at("2026-06-02T09:00:00Z"), at("2026-06-03T09:00:00Z")]);
  });

  it("is empty for an empty range", () => {
    expect(
      firesBetween("* * * * *", "UTC", at("2026-06-01T09:00:00Z"), at("2026-06-01T08:00:00Z")),
    ).toEqual([]);
  });
});

describe("latestFireAtOrBefore", () => {
  const cases: {
    name: string;
    expr: string;
    zone: string;
    at: string;
    notBefore: string;
    want: string | null;
  }[] = [
    {
      name: "Monday morning finds Friday's weekday fire",
      expr: "0 9 * * 1-5",
      zone: "Europe/Berlin",
      at: "2026-03-30T06:00:00Z",
      notBefore: "2026-03-27T00:00:00Z",
      want: "2026-03-27 09:00 GMT+01:00",
    },
    {
      name: "a fire exactly at `at` counts",
      expr: "0 9 * * *",
      zone: "Europe/Berlin",
      at: "2026-06-01T07:00:00Z",
      notBefore: "2026-06-01T07:00:00Z",
      want: "2026-06-01 09:00 GMT+02:00",
    },
    {
      name: "in the repeated hour's second pass, the fire of its first pass",
      expr: "30 2 * * *",
      zone: "Europe/Berlin",
      at: "2026-10-25T01:45:00Z",
      notBefore: "2026-10-24T00:00:00Z",
      want: "2026-10-25 02:30 GMT+02:00",
    },
    {
      name: "a gap fire is found at the gap's end",
      expr: "30 2 * * *",
      zone: "Europe/Berlin",
      at: "2026-03-29T01:00:00Z",
      notBefore: "2026-03-28T12:00:00Z",
      want: "2026-03-29 03:00 GMT+02:00",
    },
    {
      name: "just before the gap's end, the day before",
      expr: "30 2 * * *",
      zone: "Europe/Berlin",
      at: "2026-03-29T00:59:00Z",
      notBefore: "2026-03-27T00:00:00Z",
      want: "2026-03-28 02:30 GMT+01:00",
    },
  ];

  it.each(cases)("$name", ({ expr, zone, at: atIso, notBefore, want }) => {
    const fire = latestFireAtOrBefore(expr, zone, at(atIso), at(notBefore));
    expect(fire && localLabel(fire, zone)).toBe(want);
  });

  it("is null when the latest fire is older than notBefore", () => {
    const fire = latestFireAtOrBefore(
      "0 9 * * 1-5",
      "Europe/Berlin",
      at("2026-03-30T06:00:00Z"),
      at("2026-03-28T00:00:00Z"),
    );
    expect(fire).toBeNull();
  });
});

describe("bad input", () => {
  it("an unknown zone is an UnknownTimezoneError naming it", () => {
    expect(() => nextFires("0 9 * * *", "Europe/Berlinn", at("2026-01-01T00:00:00Z"), 1)).toThrow(
      UnknownTimezoneError,
    );
    expect(() => nextFires("0 9 * * *", "Europe/Berlinn", at("2026-01-01T00:00:00Z"), 1)).toThrow(
      /"Europe\/Berlinn"/,
    );
  });

  it("an invalid expression is a UsageError with describeCronError's message", () => {
    expect(() => nextFires("0 9 * *", "UTC", at("2026-01-01T00:00:00Z"), 1)).toThrow(UsageError);
    expect(() =>
      firesBetween("0 9 * *", "UTC", at("2026-01-01T00:00:00Z"), at("2026-01-02T00:00:00Z")),
    ).toThrow(/5 fields/);
  });
});

describe("previousFire", () => {
  it("finds the weekday schedule's Friday fire before Monday's, in the team's zone", () => {
    const monday = new Date("2026-11-23T08:00:00Z"); // 09:00 in Berlin
    expect(previousFire("0 9 * * 1-5", "Europe/Berlin", monday)?.toISOString()).toBe(
      "2026-11-20T08:00:00.000Z",
    );
    expect(previousFire("0 9 * * *", "Europe/Berlin", monday)?.toISOString()).toBe(
      "2026-11-22T08:00:00.000Z",
    );
  });

  it("is null when the schedule never fired within the lookback", () => {
    expect(previousFire("0 9 29 2 *", "UTC", new Date("2026-03-01T09:00:00Z"))).toBeNull();
  });
});
