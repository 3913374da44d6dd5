import { describe, expect, it } from "vitest";
import { describeCronError } from "../../src/schedule/cron-expression.js";

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
    ["61 9 * * *", 'minute "61" is not valid'],
    ["0 24 * * *", 'hour "24" is not valid'],
    ["0 9 32 * *", 'day-of-month "32" is not valid'],
    ["0 9 * 13 *", 'month "13" is not valid'],
    ["0 9 * * 8", 'day-of-week "8" is not valid'],
    ["0 9 * * funday", 'day-of-week "funday" is not valid'],
    ["5-1 * * * *", 'minute "5-1" is not valid'],
    ["H 9 * * *", 'minute "H" uses a hashed (H) value'],
    ["0 9 31 2 *", "that day of month never occurs in that month"],
  ])("rejects %j, naming the problem", (expr, fragment) => {
    const message = describeCronError(expr);
    expect(message).toContain(fragment);
    expect(message).toContain("(5 fields: minute hour day-of-month month day-of-week)");
  });
});
