import { CronExpressionParser } from "cron-parser";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { wallClockSchedule } from "../../src/timetable/wall-clock-schedule.js";

/*
 * Our stepping against cron-parser's own iteration in UTC, where the two must agree: random
 * 5-field expressions (lists, ranges, steps, names, `L`, `5L`, `1#2`, both day fields
 * restricted) from random instants, forwards and backwards.
 */

const MINUTE = 60_000;

const minute = fc.oneof(
  fc.constantFrom("*", "0", "30", "*/15", "5,35", "0-10/5", "59"),
  fc.integer({ min: 0, max: 59 }).map(String),
);
const hour = fc.oneof(
  fc.constantFrom("*", "0", "9", "*/6", "8-17", "23", "1,13"),
  fc.integer({ min: 0, max: 23 }).map(String),
);
const dayOfMonth = fc.constantFrom("*", "1", "15", "28", "29", "30", "31", "L", "1-7", "*/10", "?");
const month = fc.constantFrom("*", "1", "2", "2,8", "*/3", "6-9", "DEC", "12");
const dayOfWeek = fc.constantFrom(
  "*",
  "0",
  "1-5",
  "MON-FRI",
  "6,0",
  "7",
  "5L",
  "1L,3",
  "1#2",
  "5#5",
  "*/2",
);
const expression = fc
  .tuple(minute, hour, dayOfMonth, month, dayOfWeek)
  .map((fields) => fields.join(" "))
  .filter((expr) => {
    try {
      CronExpressionParser.parse(expr, { tz: "UTC" });
      return true;
    } catch {
      return false;
    }
  });
// 2020–2032, at any millisecond: whole minutes and seconds in between both.
const instant = fc.oneof(
  fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2032, 0, 1) }),
  fc
    .integer({ min: Date.UTC(2020, 0, 1) / MINUTE, max: Date.UTC(2032, 0, 1) / MINUTE })
    .map((m) => m * MINUTE),
);

/** cron-parser's next `count` fires from `wallMs` in `direction`, null where it finds none. */
function library(expr: string, wallMs: number, direction: "next" | "prev", count: number) {
  const cron = CronExpressionParser.parse(expr, { tz: "UTC", currentDate: new Date(wallMs) });
  const fires: (number | null)[] = [];
  for (let i = 0; i < count; i++) {
    try {
      fires.push((direction === "next" ? cron.next() : cron.prev()).getTime());
    } catch {
      fires.push(null);
      break;
    }
  }
  return fires;
}

function ours(expr: string, wallMs: number, direction: "next" | "prev", count: number) {
  const schedule = wallClockSchedule(CronExpressionParser.parse(expr, { tz: "UTC" }).fields);
  const fires: (number | null)[] = [];
  let cursor: number | null = wallMs;
  for (let i = 0; i < count && cursor !== null; i++) {
    cursor = direction === "next" ? schedule.next(cursor) : schedule.prev(cursor);
    fires.push(cursor);
  }
  return fires;
}

describe("a wall-clock schedule", () => {
  it("steps to the same fires as cron-parser, forwards and backwards", () => {
    fc.assert(
      fc.property(expression, instant, fc.constantFrom("next", "prev"), (expr, at, direction) => {
        expect(ours(expr, at, direction, 4)).toEqual(library(expr, at, direction, 4));
      }),
      { numRuns: 400 },
    );
  });

  it.each([
    ["0 9 * * 1-5", "2026-11-20T09:00:00.000Z", "next", "2026-11-23T09:00:00.000Z"],
    ["0 9 * * 1-5", "2026-11-23T09:00:00.000Z", "prev", "2026-11-20T09:00:00.000Z"],
    ["0 9 * * 1-5", "2026-11-23T09:00:00.001Z", "prev", "2026-11-23T09:00:00.000Z"],
    ["0 9 L * *", "2026-02-01T00:00:00.000Z", "next", "2026-02-28T09:00:00.000Z"],
    ["0 9 29 2 *", "2026-03-01T00:00:00.000Z", "next", "2028-02-29T09:00:00.000Z"],
    ["0 0 * * 5L", "2026-11-01T00:00:00.000Z", "next", "2026-11-27T00:00:00.000Z"],
    ["0 0 * * 1#2", "2026-11-01T00:00:00.000Z", "next", "2026-11-09T00:00:00.000Z"],
    ["0 0 13 * 5", "2026-11-01T00:00:00.000Z", "next", "2026-11-06T00:00:00.000Z"],
  ])("%s from %s, %s: %s", (expr, from, direction, expected) => {
    const [fire] = ours(expr, Date.parse(from), direction as "next" | "prev", 1);
    expect(new Date(fire ?? 0).toISOString()).toBe(expected);
  });
});
