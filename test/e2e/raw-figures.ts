import { DateTime } from "luxon";
import type { EmulatorRun } from "../../src/insights/emulator/start-emulator.js";

/**
 * The figures a digest should show, recomputed straight from the emulator's raw runs: each
 * run placed on its local day in the team's zone with luxon, the config's filters applied
 * here, and every rate taken from summed counts. Deliberately shares no code with `src/`.
 */

export interface RawFilters {
  branch?: string;
  author?: string;
  tags?: string[];
}

export interface RawFigures {
  runs: number;
  runsPassed: number;
  runsFailed: number;
  /** Total run duration, so team means can be pooled by runs. */
  durationMs: number;
  tests: number;
  testsPassed: number;
  testsFailed: number;
  testsSkipped: number;
  testsFlaky: number;
  testsTimedOut: number;
}

const EMPTY: RawFigures = {
  runs: 0,
  runsPassed: 0,
  runsFailed: 0,
  durationMs: 0,
  tests: 0,
  testsPassed: 0,
  testsFailed: 0,
  testsSkipped: 0,
  testsFlaky: 0,
  testsTimedOut: 0,
};

const localDates = new Map<string, string>();

/** The local ISO date a run started on, in `zone` (memoised: luxon is the slow part). */
export function localDate(run: EmulatorRun, zone: string): string {
  const key = `${run.startedAt}|${zone}`;
  let date = localDates.get(key);
  if (date === undefined) {
    date = DateTime.fromISO(run.startedAt, { zone: "utc" }).setZone(zone).toISODate() ?? "";
    localDates.set(key, date);
  }
  return date;
}

function matches(run: EmulatorRun, filters: RawFilters): boolean {
  if (filters.branch !== undefined && run.branch !== filters.branch) return false;
  if (filters.author !== undefined && run.author !== filters.author) return false;
  return (filters.tags ?? []).every((tag) => run.tags.includes(tag));
}

/** The runs of a project on the local days `start`..`end` (inclusive) that pass the filters. */
export function runsIn(
  runs: readonly EmulatorRun[],
  period: { start: string; end: string },
  zone: string,
  filters: RawFilters = {},
): EmulatorRun[] {
  return runs.filter((run) => {
    const day = localDate(run, zone);
    return day >= period.start && day <= period.end && matches(run, filters);
  });
}

/** Summed counts of some runs. */
export function countRuns(runs: readonly EmulatorRun[]): RawFigures {
  const f = { ...EMPTY };
  for (const run of runs) {
    f.runs += 1;
    if (run.status === "passed") f.runsPassed += 1;
    else f.runsFailed += 1;
    f.durationMs += run.durationMs;
    f.testsPassed += run.tests.passed;
    f.testsFailed += run.tests.failed;
    f.testsSkipped += run.tests.skipped;
    f.testsFlaky += run.tests.flaky;
    f.testsTimedOut += run.tests.timedOut;
  }
  f.tests = f.testsPassed + f.testsFailed + f.testsSkipped + f.testsTimedOut;
  return f;
}

/** Sums of several projects' figures (a team total, pooled). */
export function pool(list: readonly RawFigures[]): RawFigures {
  const out = { ...EMPTY };
  for (const f of list) {
    for (const k of Object.keys(out) as (keyof RawFigures)[]) out[k] += f[k];
  }
  return out;
}

export const runPassRate = (f: RawFigures) => (f.runs === 0 ? null : f.runsPassed / f.runs);
export const flakyRate = (f: RawFigures) => (f.tests === 0 ? null : f.testsFlaky / f.tests);
export const testPassRate = (f: RawFigures) => (f.tests === 0 ? null : f.testsPassed / f.tests);
export const meanDurationMs = (f: RawFigures) => (f.runs === 0 ? null : f.durationMs / f.runs);

/** "93.8%", the way PRODUCT.md says people read a rate (one decimal). */
export function percent(rate: number | null): string {
  if (rate === null) return "\u2014";
  return `${(Math.round(rate * 1000) / 10).toFixed(1)}%`;
}

/** Every ISO date from `start` to `end`, inclusive. */
export function datesOf(period: { start: string; end: string }): string[] {
  const out: string[] = [];
  let day = DateTime.fromISO(period.start, { zone: "utc" });
  const last = DateTime.fromISO(period.end, { zone: "utc" });
  while (day <= last) {
    out.push(day.toISODate() ?? "");
    day = day.plus({ days: 1 });
  }
  return out;
}
