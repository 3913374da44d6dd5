import { isIsoDate } from "../periods/calendar-date.js";
import { parseApiDate } from "./api-date.js";
import {
  MAX_RUN_DURATION_MS,
  RUN_COUNT_KEYS,
  RUN_PERCENT_KEYS,
  TEST_COUNT_KEYS,
  TEST_PERCENT_KEYS,
} from "./wire-figures.js";

// The insights answer's schema (response-schema.ts) checked by plain code, for the answers that
// fit it: a daemon checks every answer of a cycle, and zod's parse of a 5-day answer took ~21 µs
// warm and ~94 µs in a process's first 500, this ~9 and ~32 (docs/performance.md, "CPU per
// digest, fifth session"). True only for a body zod takes as it is; any other goes to zod, which
// names what is wrong. The two are held to the same answer, field by field
// (test/insights/well-formed-insights.test.ts).

type Figures = Readonly<Record<string, unknown>>;

/** Whether `body` is an insights answer the schema takes: dates, figures and their bounds. */
export function isWellFormedInsights(body: unknown): boolean {
  if (!isObject(body)) return false;
  const { start_date: start, end_date: end, timezone, runs, tests } = body;
  return (
    typeof start === "string" &&
    isIsoDate(start) &&
    typeof end === "string" &&
    isIsoDate(end) &&
    typeof timezone === "string" &&
    timezone.length > 0 &&
    isObject(runs) &&
    everyDay(runs.runs_volume_data, runFigures) &&
    isObject(runs.overall_data) &&
    runFigures(runs.overall_data) &&
    isObject(tests) &&
    everyDay(tests.tests_volume_data, testFigures) &&
    isObject(tests.overall_data) &&
    testFigures(tests.overall_data)
  );
}

function everyDay(days: unknown, figures: (day: Figures) => boolean): boolean {
  if (!Array.isArray(days)) return false;
  for (const day of days) {
    if (!isObject(day) || typeof day.date !== "string") return false;
    if (parseApiDate(day.date) === null || !figures(day)) return false;
  }
  return true;
}

function runFigures(figures: Figures): boolean {
  const duration = figures.average_run_duration;
  return (
    allOrNoCounts(figures, RUN_COUNT_KEYS) &&
    percentages(figures, RUN_PERCENT_KEYS) &&
    (duration === undefined ||
      (typeof duration === "number" && duration >= 0 && duration <= MAX_RUN_DURATION_MS))
  );
}

function testFigures(figures: Figures): boolean {
  if (!allOrNoCounts(figures, TEST_COUNT_KEYS) || !percentages(figures, TEST_PERCENT_KEYS)) {
    return false;
  }
  // Passed tests include the flaky ones.
  const { passed_tests_count: passed, flaky_tests_count: flaky } = figures;
  return passed === undefined || flaky === undefined || Number(flaky) <= Number(passed);
}

/** Every count a whole number from 0 to 2^53 − 1, and all of them there or none. */
function allOrNoCounts(figures: Figures, keys: readonly string[]): boolean {
  let present = 0;
  for (const key of keys) {
    const count = figures[key];
    if (count === undefined) continue;
    if (!Number.isSafeInteger(count) || (count as number) < 0) return false;
    present++;
  }
  return present === 0 || present === keys.length;
}

/** Each a number from 0 to 100, or null or absent (never read). */
function percentages(figures: Figures, keys: readonly string[]): boolean {
  for (const key of keys) {
    const rate = figures[key];
    if (rate === undefined || rate === null) continue;
    if (typeof rate !== "number" || !(rate >= 0 && rate <= 100)) return false;
  }
  return true;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
