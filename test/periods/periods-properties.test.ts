import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Weekday } from "../../src/config/types.js";
import { periodsForFire } from "../../src/periods/periods-for-fire.js";
import { type CompareTo, PERIOD_KINDS, type PeriodKind } from "../../src/periods/types.js";

/*
 * Properties of periods over random fire instants, checked with date arithmetic of the test's
 * own (Date.UTC and Intl), not the code under test.
 */

const ZONES = [
  "America/New_York",
  "Europe/Berlin",
  "Australia/Sydney",
  "Pacific/Auckland",
  "Pacific/Kiritimati",
  "Pacific/Pago_Pago",
  "Asia/Kolkata",
  "Asia/Kathmandu",
  "Etc/UTC",
];

const DAY_MS = 86_400_000;
const dayNumber = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / DAY_MS;
const isoOfDay = (n: number) => new Date(n * DAY_MS).toISOString().slice(0, 10);
const length = (p: { start: string; end: string }) => dayNumber(p.end) - dayNumber(p.start) + 1;
const weekday = (iso: string) =>
  (((new Date(`${iso}T00:00:00Z`).getUTCDay() + 6) % 7) + 1) as Weekday;
const lastOfMonth = (iso: string) => {
  const [y, m] = iso.split("-").map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
};

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The fire's local date by Intl, independently of luxon. */
function localDate(instant: Date, timeZone: string): string {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
    });
    formatters.set(timeZone, format);
  }
  return format.format(instant);
}

/** Instants where periods go wrong if anything does: DST changes, month and year ends, leap days. */
const ANCHORS = [
  "2026-03-08T07:00:00Z", // New York DST starts
  "2026-11-01T06:00:00Z", // New York DST ends
  "2026-03-29T01:00:00Z", // Berlin DST starts
  "2026-10-25T01:00:00Z", // Berlin DST ends
  "2026-04-04T16:00:00Z", // Sydney DST ends
  "2026-10-03T16:00:00Z", // Sydney DST starts
  "2026-04-04T14:00:00Z", // Auckland DST ends
  "2026-09-26T14:00:00Z", // Auckland DST starts
  "2028-02-29T12:00:00Z", // leap day
  "2028-03-01T00:00:00Z",
  "2026-12-31T12:00:00Z", // year end, with +14 and −11 on different dates
  "2027-01-31T23:00:00Z",
].map((iso) => Date.parse(iso));

const nearAnchor = fc
  .tuple(fc.constantFrom(...ANCHORS), fc.integer({ min: -72 * 60, max: 72 * 60 }))
  .map(([anchor, minutes]) => new Date(anchor + minutes * 60_000));
const anyInstant = fc.date({
  min: new Date("2024-01-01T00:00:00Z"),
  max: new Date("2030-12-31T23:59:59Z"),
  noInvalidDate: true,
});

const fire = fc.record({
  fireAt: fc.oneof(nearAnchor, anyInstant),
  timezone: fc.constantFrom(...ZONES),
  // since_previous_run depends on the previous fire too: it has its own properties below.
  kind: fc.constantFrom<PeriodKind>(...PERIOD_KINDS.filter((k) => k !== "since_previous_run")),
  weekStartsOn: fc.integer({ min: 1, max: 7 }).map((n) => n as Weekday),
});

// Half the instants fall within three days of an anchor, so every zone meets every anchor often.
const RUNS = { numRuns: 1500 };

describe("periodsForFire properties", () => {
  it("the prior period ends the day before the current one starts, and never overlaps it", () => {
    fc.assert(
      fc.property(fire, (input) => {
        const { current, prior } = periodsForFire({ ...input, compareTo: "previous_period" });
        expect(dayNumber(prior.end)).toBe(dayNumber(current.start) - 1);
        expect(prior.start <= prior.end).toBe(true);
      }),
      RUNS,
    );
  });

  it("current and prior have equal lengths, except months and quarters, which are whole calendar months", () => {
    fc.assert(
      fc.property(fire, (input) => {
        const { current, prior } = periodsForFire({ ...input, compareTo: "previous_period" });
        if (input.kind === "previous_month" || input.kind === "previous_quarter") {
          for (const p of [current, prior]) {
            expect(p.start.endsWith("-01")).toBe(true);
            expect(p.end).toBe(lastOfMonth(p.end));
            if (input.kind === "previous_month")
              expect(p.end.slice(0, 7)).toBe(p.start.slice(0, 7));
          }
        } else {
          expect(length(prior)).toBe(length(current));
        }
      }),
      RUNS,
    );
  });

  it("the current period is whole local days ending before the fire's local date", () => {
    const expectedLength: Record<PeriodKind, number | null> = {
      previous_day: 1,
      since_previous_run: null,
      previous_week: 7,
      previous_month: null,
      previous_quarter: null,
      last_7_days: 7,
      last_28_days: 28,
    };
    fc.assert(
      fc.property(fire, (input) => {
        const today = localDate(input.fireAt, input.timezone);
        const { current } = periodsForFire({ ...input, compareTo: "previous_period" });
        expect(current.start).toBe(isoOfDay(dayNumber(current.start)));
        expect(current.end).toBe(isoOfDay(dayNumber(current.end)));
        expect(current.end < today).toBe(true);
        const days = expectedLength[input.kind];
        if (days !== null) expect(length(current)).toBe(days);
        const calendar = ["previous_week", "previous_month", "previous_quarter"];
        if (!calendar.includes(input.kind)) {
          expect(dayNumber(current.end)).toBe(dayNumber(today) - 1);
        }
      }),
      RUNS,
    );
  });

  it("previous_week is the last full week by week_starts_on, before the fire's week", () => {
    fc.assert(
      fc.property(fire, (input) => {
        const today = localDate(input.fireAt, input.timezone);
        const { current } = periodsForFire({
          ...input,
          kind: "previous_week",
          compareTo: "previous_period",
        });
        expect(weekday(current.start)).toBe(input.weekStartsOn);
        // The fire's week starts the day after the reported week ends.
        const sinceEnd = dayNumber(today) - dayNumber(current.end);
        expect(sinceEnd).toBeGreaterThanOrEqual(1);
        expect(sinceEnd).toBeLessThanOrEqual(7);
      }),
      RUNS,
    );
  });

  it("previous_month is the calendar month before the fire's local month", () => {
    fc.assert(
      fc.property(fire, (input) => {
        const today = localDate(input.fireAt, input.timezone);
        const { current } = periodsForFire({
          ...input,
          kind: "previous_month",
          compareTo: "previous_period",
        });
        expect(dayNumber(current.end) + 1).toBe(dayNumber(`${today.slice(0, 8)}01`));
      }),
      RUNS,
    );
  });

  it("previous_quarter is the three calendar months before the fire's local quarter", () => {
    fc.assert(
      fc.property(fire, (input) => {
        const today = localDate(input.fireAt, input.timezone);
        const { current, prior } = periodsForFire({
          ...input,
          kind: "previous_quarter",
          compareTo: "previous_period",
        });
        const [year, month] = today.split("-").map(Number) as [number, number];
        const quarterStart = new Date(Date.UTC(year, Math.floor((month - 1) / 3) * 3, 1));
        expect(dayNumber(current.end) + 1).toBe(quarterStart.getTime() / DAY_MS);
        expect(["01", "04", "07", "10"]).toContain(current.start.slice(5, 7));
        expect(current.start.slice(8)).toBe("01");
        const monthsApart = (a: string, b: string) =>
          (Number(b.slice(0, 4)) - Number(a.slice(0, 4))) * 12 +
          Number(b.slice(5, 7)) -
          Number(a.slice(5, 7));
        expect(monthsApart(current.start, current.end)).toBe(2);
        expect(monthsApart(prior.start, current.start)).toBe(3);
        expect(dayNumber(prior.end) + 1).toBe(dayNumber(current.start));
      }),
      RUNS,
    );
  });

  it("same_period_last_year: calendar months a year back, spans of days 52 weeks back", () => {
    fc.assert(
      fc.property(fire, (input) => {
        const compareTo: CompareTo = "same_period_last_year";
        const { current, prior } = periodsForFire({ ...input, compareTo });
        if (input.kind === "since_previous_run") return; // compared with a week earlier, always
        if (input.kind === "previous_month" || input.kind === "previous_quarter") {
          const lastYear = (iso: string) => `${Number(iso.slice(0, 4)) - 1}${iso.slice(4, 8)}`;
          expect(prior.start).toBe(`${lastYear(current.start)}01`);
          expect(prior.end).toBe(lastOfMonth(`${lastYear(current.end)}01`));
        } else {
          expect(dayNumber(prior.start)).toBe(dayNumber(current.start) - 364);
          expect(dayNumber(prior.end)).toBe(dayNumber(current.end) - 364);
          expect(weekday(prior.start)).toBe(weekday(current.start));
        }
      }),
      RUNS,
    );
  });

  it("same_period_last_week is the current span moved back seven days", () => {
    const shortKinds = fc.constantFrom<PeriodKind>("previous_day", "previous_week", "last_7_days");
    fc.assert(
      fc.property(fire, shortKinds, (input, kind) => {
        const compareTo: CompareTo = "same_period_last_week";
        const { current, prior } = periodsForFire({ ...input, kind, compareTo });
        expect(dayNumber(prior.start)).toBe(dayNumber(current.start) - 7);
        expect(dayNumber(prior.end)).toBe(dayNumber(current.end) - 7);
        expect(prior.end < current.start).toBe(true);
      }),
      RUNS,
    );
  });

  it("since_previous_run covers every day from the previous fire's day to yesterday, against the same days a week earlier", () => {
    fc.assert(
      fc.property(fire, fc.integer({ min: 0, max: 6 * 86_400_000 }), (input, gapMs) => {
        const previousFireAt = new Date(input.fireAt.getTime() - gapMs);
        const today = localDate(input.fireAt, input.timezone);
        const previousDay = localDate(previousFireAt, input.timezone);
        const { current, prior } = periodsForFire({
          ...input,
          kind: "since_previous_run",
          compareTo: "previous_period",
          previousFireAt,
        });
        expect(dayNumber(current.end)).toBe(dayNumber(today) - 1);
        // No day between two fires goes unreported, and none is reported twice.
        const expectedStart = previousDay < today ? previousDay : current.end;
        expect(current.start).toBe(expectedStart);
        expect(dayNumber(prior.start)).toBe(dayNumber(current.start) - 7);
        expect(dayNumber(prior.end)).toBe(dayNumber(current.end) - 7);
      }),
      RUNS,
    );
  });
});
