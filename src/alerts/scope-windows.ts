import type { ScopeWindow, WindowCounts } from "./types.js";

// From a report over the alert's trend span to each scope's window: the counts of the window's
// last days, the prior window beside them, and every day of the trend for the sparkline. The
// report is read by shape only (no import of report/): its projects and total fit these types.

/** A report's figures as far as an alert reads them: counts, and the runs' mean duration. */
export type FiguresLike = Omit<WindowCounts, "runDurationMs" | "timedRuns"> & {
  meanRunDurationMs: number | null;
};

interface DailyLike {
  figures: FiguresLike;
}

interface ScopeLike {
  prior: FiguresLike | null;
  daily: readonly DailyLike[];
}

interface ProjectLike extends Partial<ScopeLike> {
  projectId: string;
  name: string;
  status: "ok" | "unavailable";
  reason?: { code: string };
}

export interface ReportLike {
  team: { title: string };
  projects: readonly ProjectLike[];
  total: ScopeLike;
}

/** The scope id of the team total. */
export const TEAM_SCOPE = "team";

/** How many days of trend to fetch for a window of `windowDays`: a week, and two windows at least. */
export function trendDays(windowDays: number): number {
  return windowDays >= 7 ? windowDays : Math.max(7, 2 * windowDays);
}

/**
 * Each scope's window, for an alert over `windowDays` days and a report whose daily series
 * cover `trendDays(windowDays)` days ending with the window. When the trend holds two windows,
 * the prior is the window before; else (a window of a week or more) the report's own prior.
 */
export function scopeWindows(
  report: ReportLike,
  windowDays: number,
  scope: "projects" | "team" | "both",
): ScopeWindow[] {
  const windows: ScopeWindow[] = [];
  if (scope !== "team") {
    for (const p of report.projects) {
      windows.push(
        p.status === "ok" && p.daily
          ? windowOf(p.projectId, p.name, { prior: p.prior ?? null, daily: p.daily }, windowDays)
          : {
              scope: p.projectId,
              name: p.name,
              current: null,
              prior: null,
              daily: [],
              missing:
                p.reason?.code === "PROJECT_NOT_FOUND" ? "not found" : "could not be fetched",
            },
      );
    }
  }
  if (scope !== "projects") {
    const anyAvailable = report.projects.some((p) => p.status === "ok");
    windows.push(
      anyAvailable
        ? windowOf(TEAM_SCOPE, `${report.team.title} (team)`, report.total, windowDays)
        : {
            scope: TEAM_SCOPE,
            name: `${report.team.title} (team)`,
            current: null,
            prior: null,
            daily: [],
          },
    );
  }
  return windows;
}

function windowOf(
  scope: string,
  name: string,
  figures: ScopeLike,
  windowDays: number,
): ScopeWindow {
  const days = figures.daily.map((d) => countsOf(d.figures));
  const current = sumCounts(days.slice(-windowDays));
  const hasPriorWindow = days.length >= 2 * windowDays;
  const prior = hasPriorWindow
    ? sumCounts(days.slice(-2 * windowDays, -windowDays))
    : figures.prior && countsOf(figures.prior);
  return { scope, name, current, prior, daily: days };
}

/** A report's figures as counts: the mean duration becomes a sum over the runs it covers. */
export function countsOf(f: FiguresLike): WindowCounts {
  const timed = f.meanRunDurationMs !== null && f.runs > 0;
  return {
    runs: f.runs,
    runsPassed: f.runsPassed,
    runsFailed: f.runsFailed,
    tests: f.tests,
    testsPassed: f.testsPassed,
    testsFailed: f.testsFailed,
    testsFlaky: f.testsFlaky,
    testsSkipped: f.testsSkipped,
    testsTimedOut: f.testsTimedOut,
    runDurationMs: timed ? (f.meanRunDurationMs as number) * f.runs : 0,
    timedRuns: timed ? f.runs : 0,
  };
}

/** The counts of several days together. */
export function sumCounts(days: readonly WindowCounts[]): WindowCounts {
  const sum: WindowCounts = {
    runs: 0,
    runsPassed: 0,
    runsFailed: 0,
    tests: 0,
    testsPassed: 0,
    testsFailed: 0,
    testsFlaky: 0,
    testsSkipped: 0,
    testsTimedOut: 0,
    runDurationMs: 0,
    timedRuns: 0,
  };
  for (const d of days) {
    sum.runs += d.runs;
    sum.runsPassed += d.runsPassed;
    sum.runsFailed += d.runsFailed;
    sum.tests += d.tests;
    sum.testsPassed += d.testsPassed;
    sum.testsFailed += d.testsFailed;
    sum.testsFlaky += d.testsFlaky;
    sum.testsSkipped += d.testsSkipped;
    sum.testsTimedOut += d.testsTimedOut;
    sum.runDurationMs += d.runDurationMs;
    sum.timedRuns += d.timedRuns;
  }
  return sum;
}
