import { describe, expect, it } from "vitest";
import { describeCronError } from "../../src/timetable/cron-expression.js";

describe("describeCronError", () => {
  it.each([
    "0 9 * * 1-5",
    "*/15 * * * *",
    "30 2 * * *",
    "0 9 * * MON-FRI",
    "0 9 1,15 * *",
    "0 18 L * *",
    "0 9 * * 5#2",
    "0 0 29 2 *",
    "  0 9 * * *  ",
  ])("accepts %j", (expr) => {
    expect(describeCronError(expr)).toBeNull();
  });

  it.each([
    [
      "0 9 * *",
      '"0 9 * *" is not a cron expression (5 fields: minute hour day-of-month month day-of-week)',
    ],
    ["0 0 9 * * *", '"0 0 9 * * *" is not a cron expression (5 fields'],
    ["@daily", '"@daily" is not a cron expression (5 fields'],
    ["", '"" is not a cron expression (5 fields'],
    ["61 9 * * *", 'minute "61": 61 is out of range — allowed: 0–59'],
    ["0 24 * * *", 'hour "24": 24 is out of range — allowed: 0–23'],
    ["0 9 32 * *", 'day-of-month "32": 32 is out of range — allowed: 1–31'],
    ["0 9 * 13 *", 'month "13": 13 is out of range — allowed: 1–12 or jan–dec'],
    ["0 9 * * 8", 'day-of-week "8": 8 is out of range — allowed: 0–7 (0 and 7 are Sunday)'],
    ["0 9 * * funday", 'day-of-week "funday": "funday" is not a number or a name'],
    ["0 9 * * mon-fry", 'day-of-week "mon-fry": "fry" is not a number or a name'],
    ["5-1 * * * *", 'minute "5-1": the range "5-1" runs backwards'],
    ["0 9 * * 1-", 'day-of-week "1-": the range "1-" lacks its end'],
    ["*/0 9 * * *", 'the step in "*/0" must be a whole number of at least 1'],
    ["0 9,, * * *", 'its list "9,," has an empty item'],
    ["H 9 * * *", 'minute "H" uses a hashed (H) value'],
    ["0 9 31 2 *", "that day of month never occurs in that month"],
  ])("rejects %j, naming the problem", (expr, fragment) => {
    const message = describeCronError(expr);
    expect(message).toContain(fragment);
    expect(message).toContain("(5 fields: minute hour day-of-month month day-of-week)");
    // The parser's own wording speaks of its internals, not of what was written.
    expect(message).not.toMatch(/constraint error|NaN|validation error|got value/);
  });
});
