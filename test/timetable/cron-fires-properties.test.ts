import { CronExpressionParser } from "cron-parser";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { firesBetween, latestFireAtOrBefore, nextFires } from "../../src/timetable/cron-fires.js";

/*
 * firesBetween against a brute-force oracle that walks real time minute by minute and reads
 * the zone's clock with Intl: a schedule fires at the first instant the clock reaches (or
 * jumps past) a wall-clock minute the expression matches. That one rule is the product's DST
 * behaviour (a gap's fires happen once at its end; a repeated hour fires once, the first
 * time), and the oracle shares no code with the implementation.
 */

const MINUTE = 60_000;
const DAY = 1_440 * MINUTE;

// Zones around one of their 2026 changes: whole hours, Lord Howe's half hour, Chatham's
// 02:45, Santiago's midnight.
const CHANGES: [zone: string, day: string][] = [
  ["Europe/Berlin", "2026-03-29"],
  ["Europe/Berlin", "2026-10-25"],
  ["America/New_York", "2026-03-08"],
  ["America/New_York", "2026-11-01"],
  ["Australia/Sydney", "2026-04-05"],
  ["Australia/Sydney", "2026-10-04"],
  ["Australia/Lord_Howe", "2026-04-05"],
  ["Australia/Lord_Howe", "2026-10-04"],
  ["Pacific/Chatham", "2026-04-05"],
  ["Pacific/Chatham", "2026-09-27"],
  ["America/Santiago", "2026-04-05"],
  ["America/Santiago", "2026-09-06"],
  ["Asia/Kolkata", "2026-03-29"],
];

const EXPRESSIONS = [
  "30 2 * * *",
  "*/15 * * * *",
  "0 * * * *",
  "0 9 * * 1-5",
  "45 1,2,3 * * *",
  "*/7 2-3 * * *",
  "0,30 0 * * *",
  "15 2 * * 0",
  "59 23 * * *",
  "1 0 * * *",
  "50 2 * * *",
];

const formats = new Map<string, Intl.DateTimeFormat>();

/** The zone's clock reading at `t`, as UTC-shaped milliseconds, by Intl. */
function wallOf(t: number, timeZone: string): number {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
    });
    formats.set(timeZone, format);
  }
  const p = Object.fromEntries(format.formatToParts(t).map((x) => [x.type, Number(x.value)]));
  return Date.UTC(p.year ?? 0, (p.month ?? 1) - 1, p.day, p.hour, p.minute);
}

function oracle(expr: string, zone: string, from: number, to: number): number[] {
  const start = wallOf(from, zone);
  // The wall-clock minutes the expression matches, from the library alone (UTC has no DST).
  const matches = new Set<number>();
  const cron = CronExpressionParser.parse(expr, { tz: "UTC", currentDate: new Date(start) });
  for (let w = cron.next().getTime(); w <= start + 3 * DAY; w = cron.next().getTime()) {
    matches.add(w);
  }
  const fires: number[] = [];
  let reached = start;
  for (let t = Math.floor(from / MINUTE) * MINUTE + MINUTE; t <= to; t += MINUTE) {
    const wall = wallOf(t, zone);
    let matched = false;
    for (let w = reached + MINUTE; w <= wall; w += MINUTE) {
      if (matches.has(w)) matched = true;
    }
    if (matched) fires.push(t);
    reached = Math.max(reached, wall);
  }
  return fires;
}

const scenario = fc.record({
  change: fc.constantFrom(...CHANGES),
  expr: fc.constantFrom(...EXPRESSIONS),
  // Start between a day and half a day before the change's local date (UTC midnight), so the
  // change falls inside the day and a half that is checked.
  startMinutes: fc.integer({ min: 720, max: 1_440 }),
});

describe("fires against a minute-by-minute oracle", () => {
  it("firesBetween agrees with the oracle around DST changes", () => {
    fc.assert(
      fc.property(scenario, ({ change: [zone, day], expr, startMinutes }) => {
        const from = Date.parse(`${day}T00:00:00Z`) - startMinutes * MINUTE;
        const to = from + 1.5 * DAY;
        const got = firesBetween(expr, zone, new Date(from), new Date(to)).map((d) => d.getTime());
        expect(got).toEqual(oracle(expr, zone, from, to));
      }),
      { numRuns: 30 },
    );
  });

  it("nextFires, firesBetween and latestFireAtOrBefore describe the same fires", () => {
    fc.assert(
      fc.property(scenario, ({ change: [zone, day], expr, startMinutes }) => {
        const from = new Date(Date.parse(`${day}T00:00:00Z`) - startMinutes * MINUTE);
        const next = nextFires(expr, zone, from, 6);
        const last = next.at(-1);
        if (!last) throw new Error("every expression here fires within days");
        expect(firesBetween(expr, zone, from, last)).toEqual(next);
        for (const [i, fire] of next.entries()) {
          expect(latestFireAtOrBefore(expr, zone, fire, from)).toEqual(fire);
          // Just before a fire, the latest fire is the one before it (or none after `from`).
          const afterFrom = new Date(from.getTime() + 1);
          const before = latestFireAtOrBefore(expr, zone, new Date(fire.getTime() - 1), afterFrom);
          expect(before).toEqual(i === 0 ? null : next[i - 1]);
        }
      }),
      { numRuns: 40 },
    );
  });

  it("a daily schedule fires exactly once on every local date, whatever the zone does", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...CHANGES),
        fc.integer({ min: 0, max: 23 }),
        fc.integer({ min: 0, max: 59 }),
        ([zone, day], hour, minute) => {
          const from = new Date(Date.parse(`${day}T00:00:00Z`) - 3 * DAY);
          const fires = nextFires(`${minute} ${hour} * * *`, zone, from, 6);
          const dates = fires.map((f) =>
            new Date(wallOf(f.getTime(), zone)).toISOString().slice(0, 10),
          );
          expect(new Set(dates).size).toBe(6);
          for (const [i, date] of dates.entries()) {
            if (i > 0) expect(Date.parse(date) - Date.parse(dates[i - 1] ?? "")).toBe(DAY);
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
