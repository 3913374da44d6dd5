import { DateTime } from "luxon";
import type { EmulatorRun } from "../../src/insights/emulator/start-emulator.js";

/**
 * An independent recomputation of the insights body from the emulator's raw runs: each run is
 * converted to its local date with luxon (the emulator compares against local midnights), and
 * figures follow insights-api.md with the emulator's documented rounding (percentages to 2
 * decimals, mean durations to whole milliseconds).
 */
export function recomputeInsights(
  runs: readonly EmulatorRun[],
  query: {
    startDate: string;
    endDate: string;
    timezone: string;
    branch?: string;
    author?: string;
    tags?: string[];
  },
) {
  const dates: string[] = [];
  for (let d = DateTime.fromISO(query.startDate, { zone: "utc" }); ; d = d.plus({ days: 1 })) {
    const iso = d.toISODate() ?? "";
    if (iso > query.endDate) break;
    dates.push(iso);
  }
  const byDate = new Map<string, EmulatorRun[]>(dates.map((d) => [d, []]));
  // A cheap pre-filter (no zone is more than 14 hours off UTC) keeps luxon off most runs.
  const from = DateTime.fromISO(query.startDate, { zone: "utc" }).minus({ days: 1 }).toISO() ?? "";
  const to = DateTime.fromISO(query.endDate, { zone: "utc" }).plus({ days: 2 }).toISO() ?? "";
  for (const run of runs) {
    if (Date.parse(run.startedAt) < Date.parse(from) || Date.parse(run.startedAt) >= Date.parse(to))
      continue;
    if (query.branch !== undefined && run.branch !== query.branch) continue;
    if (query.author !== undefined && run.author !== query.author) continue;
    if (!(query.tags ?? []).every((t) => run.tags.includes(t))) continue;
    const local =
      DateTime.fromISO(run.startedAt, { zone: "utc" }).setZone(query.timezone).toISODate() ?? "";
    byDate.get(local)?.push(run);
  }
  const all = [...byDate.values()].flat();
  return {
    start_date: query.startDate,
    end_date: query.endDate,
    timezone: query.timezone,
    runs: {
      runs_volume_data: dates.map((d) => ({
        date: apiDate(d),
        ...runFigures(byDate.get(d) ?? [], true),
      })),
      overall_data: runFigures(all, false),
    },
    tests: {
      tests_volume_data: dates.map((d) => ({
        date: apiDate(d),
        ...testDayFigures(byDate.get(d) ?? []),
      })),
      overall_data: testOverallFigures(all),
    },
  };
}

/** `%b %e, %Y` built with luxon's English month names and a space-padded day. */
export function apiDate(isoDate: string): string {
  const d = DateTime.fromISO(isoDate, { zone: "utc" }).setLocale("en-US");
  return `${d.toFormat("LLL")} ${String(d.day).padStart(2, " ")}, ${d.year}`;
}

const pct = (part: number, whole: number) =>
  whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 100;

function runFigures(runs: EmulatorRun[], omitWhenEmpty: boolean) {
  if (omitWhenEmpty && runs.length === 0) return {};
  const passed = runs.filter((r) => r.status === "passed").length;
  const duration = runs.reduce((s, r) => s + r.durationMs, 0);
  return {
    passed_runs_count: passed,
    failed_runs_count: runs.length - passed,
    average_passing_rate: pct(passed, runs.length),
    average_run_duration: runs.length === 0 ? 0 : Math.round(duration / runs.length),
  };
}

function totals(runs: EmulatorRun[]) {
  const t = { passed: 0, failed: 0, skipped: 0, flaky: 0, timedOut: 0 };
  for (const r of runs) {
    t.passed += r.tests.passed;
    t.failed += r.tests.failed;
    t.skipped += r.tests.skipped;
    t.flaky += r.tests.flaky;
    t.timedOut += r.tests.timedOut;
  }
  return { ...t, results: t.passed + t.failed + t.skipped + t.timedOut };
}

function testDayFigures(runs: EmulatorRun[]) {
  const t = totals(runs);
  if (t.results === 0) return {};
  return {
    passed_tests_count: t.passed,
    failed_tests_count: t.failed,
    skipped_tests_count: t.skipped,
    flaky_tests_count: t.flaky,
    timed_out_tests_count: t.timedOut,
    pass_percentage: pct(t.passed, t.results),
    fail_percentage: pct(t.failed, t.results),
    skip_percentage: pct(t.skipped, t.results),
    flaky_percentage: pct(t.flaky, t.results),
    timed_out_percentage: pct(t.timedOut, t.results),
    average_passing_rate: pct(t.passed, t.results),
    average_flakiness_rate: pct(t.flaky, t.results),
  };
}

function testOverallFigures(runs: EmulatorRun[]) {
  const t = totals(runs);
  return {
    passed_tests_count: t.passed,
    failed_tests_count: t.failed,
    skipped_tests_count: t.skipped,
    flaky_tests_count: t.flaky,
    timed_out_tests_count: t.timedOut,
    average_passing_rate: pct(t.passed, t.results),
    average_flakiness_rate: pct(t.flaky, t.results),
  };
}
