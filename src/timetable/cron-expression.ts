import { CronExpressionParser } from "cron-parser";
import { UsageError } from "../errors.js";
import { cronFieldProblem } from "./cron-field-problem.js";
import { type WallClockSchedule, wallClockSchedule } from "./wall-clock-schedule.js";

// Parsing of the 5-field cron expressions in the config. The library parses the fields; we
// only insist on exactly five of them (cron-parser also takes seconds, macros and hashed `H`
// values, which a config should not silently accept) and name the field that is wrong.

const FIELD_NAMES = ["minute", "hour", "day-of-month", "month", "day-of-week"] as const;
const SHAPE = "5 fields: minute hour day-of-month month day-of-week";
// Each field is checked on its own against this neutral expression, to name the bad one.
const NEUTRAL = ["0", "0", "*", "*", "*"];

/** Null when `expr` is a usable 5-field cron expression, else a message saying what is wrong. */
export function describeCronError(expr: string): string | null {
  if (parsedSchedule(expr) !== null) return null;
  // Only a bad expression is taken apart, to name the bad field.
  const fields = fieldsOf(expr);
  if (fields.length !== FIELD_NAMES.length) {
    return `"${expr}" is not a cron expression (${SHAPE})`;
  }
  for (const [index, field] of fields.entries()) {
    const name = FIELD_NAMES[index] ?? "field";
    if (usesHash(field)) {
      return `"${expr}" is not a cron expression: ${name} "${field}" uses a hashed (H) value, which is not supported — write the number (${SHAPE})`;
    }
    const alone = NEUTRAL.map((neutral, i) => (i === index ? field : neutral)).join(" ");
    const problem = parseProblem(alone);
    if (problem) {
      const words = cronFieldProblem(name, field) ?? `is not valid (${problem})`;
      return `"${expr}" is not a cron expression: ${name} "${field}": ${words} (${SHAPE})`;
    }
  }
  const problem = parseProblem(fields.join(" "));
  return problem ? `"${expr}" is not a cron expression: ${problem} (${SHAPE})` : null;
}

/**
 * The fires of `expr` on a wall clock carried as UTC (see `zone-clock.ts`). Throws a
 * UsageError with `describeCronError`'s message when invalid (config validation normally
 * rejects such a schedule first).
 */
export function wallClockCron(expr: string): WallClockSchedule {
  const schedule = parsedSchedule(expr);
  if (schedule !== null) return schedule;
  throw new UsageError(describeCronError(expr) ?? `"${expr}" is not a cron expression`, {
    schedule: expr,
  });
}

// Valid expressions, parsed, by their text: a config repeats a handful of expressions over
// hundreds of jobs, the scheduler asks for each job's fires on every plan, and each cron-parser
// parse builds luxon dates (the idle daemon's 400 jobs made 1,600 parses of 2 expressions at
// start). A parse is a pure function of the text, so nothing kept here can go stale.
const parsed = new Map<string, WallClockSchedule>();
const PARSED_LIMIT = 1_000;

/** The schedule of a valid 5-field expression without hashed values, or null. */
function parsedSchedule(expr: string): WallClockSchedule | null {
  const known = parsed.get(expr);
  if (known) return known;
  const fields = fieldsOf(expr);
  if (fields.length !== FIELD_NAMES.length || fields.some(usesHash)) return null;
  let schedule: WallClockSchedule;
  try {
    schedule = wallClockSchedule(
      CronExpressionParser.parse(fields.join(" "), { tz: "UTC" }).fields,
    );
  } catch {
    return null;
  }
  if (parsed.size >= PARSED_LIMIT) parsed.clear();
  parsed.set(expr, schedule);
  return schedule;
}

function fieldsOf(expr: string): string[] {
  return expr.trim().split(/\s+/).filter(Boolean);
}

function usesHash(field: string): boolean {
  return field.split(/[,/#-]/).some((part) => /^H(\(|$)/i.test(part));
}

function parseProblem(expr: string): string | null {
  try {
    CronExpressionParser.parse(expr, { tz: "UTC" });
    return null;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // cron-parser's wording for "31 2" and the like says little to someone editing a config.
    if (/explicit day of month/i.test(message))
      return "that day of month never occurs in that month";
    return message.charAt(0).toLowerCase() + message.slice(1);
  }
}
