import type { ErrorCode } from "../errors.js";
import type { ProjectFilters } from "../insights/types.js";
import type { PeriodPair } from "../periods/types.js";

// The report model: everything a digest shows, computed once from insights by pure code
// (`build-report.ts`) and rendered many ways (Slack, terminal, email, workbook).
// Rates are fractions (0.938), never percentages; durations are milliseconds.

/** The figures of one span (a period or a single day), for a project or the team. */
export interface Figures {
  runs: number;
  runsPassed: number;
  runsFailed: number;
  /** runsPassed / runs; null when there were no runs (never 0%). */
  runPassRate: number | null;
  /** Mean run duration in ms; null when there were no runs. */
  meanRunDurationMs: number | null;
  /** Total test results = passed + failed + skipped + timed out. */
  tests: number;
  /** Includes flaky. */
  testsPassed: number;
  testsFailed: number;
  testsSkipped: number;
  testsFlaky: number;
  testsTimedOut: number;
  /** testsPassed / tests; null when there were no results. */
  testPassRate: number | null;
  /** testsFlaky / tests; null when there were no results. */
  flakyRate: number | null;
}

export type RateFigure = "runPassRate" | "testPassRate" | "flakyRate";
export type AmountFigure =
  | "runs"
  | "meanRunDurationMs"
  | "tests"
  | "testsFailed"
  | "testsTimedOut"
  | "testsFlaky";

/** Why there is no ordinary delta. */
export type NoDelta =
  /** The prior period had no data for this figure: the figure is new. */
  | { kind: "new" }
  /** The current period has no data for this figure. */
  | { kind: "none" }
  /** The prior period could not be fetched (e.g. beyond the API's lookback). */
  | { kind: "unavailable"; reason: string };

/**
 * A rate's change in percentage points; `significant` from a two-proportion z-test at 95%,
 * `large` when it is at least the config's `min_change_pp`. Only both together are news.
 */
export type RateDelta =
  | { kind: "change"; pp: number; significant: boolean; pValue: number; large: boolean }
  | NoDelta;

/**
 * A count's or duration's change; `pct` is null when the prior value is 0 (no division by zero).
 * `significant`: counts by a two-sample Poisson test at 95%; durations (a mean with no spread
 * known) always. `large`: at least 10% (any change from a prior of 0).
 */
export type AmountDelta =
  | { kind: "change"; diff: number; pct: number | null; significant: boolean; large: boolean }
  | NoDelta;

/** What makes a change large enough to be news, and the spans' lengths the counts are over. */
export interface ChangeRules {
  /** Smallest rate change that matters, in percentage points (config `min_change_pp`). */
  minChangePp: number;
  /** Days in the current and the prior span: a count over 31 days is compared per day with 30. */
  currentDays: number;
  priorDays: number;
}

export type Deltas = { [K in RateFigure]: RateDelta } & { [K in AmountFigure]: AmountDelta };

/** One local day of a series. Days without data have zero counts and null rates. */
export interface DailyPoint {
  date: string;
  figures: Figures;
}

interface ProjectRef {
  projectId: string;
  /** Config name, else the API's project name, else the id. */
  name: string;
  filters: ProjectFilters;
}

export interface AvailableProject extends ProjectRef {
  status: "ok";
  /**
   * Runs in the prior period and none in this one: a suite that stopped. Digests name it first,
   * and the team total leaves it out on both sides, so a stopped suite never flatters the team.
   */
  silent: boolean;
  current: Figures;
  /** null when the prior period could not be fetched; see `priorNote`. */
  prior: Figures | null;
  /** e.g. "prior period not available: insights go back to 2026-08-25". */
  priorNote: string | null;
  deltas: Deltas;
  /** Every day of the current period held, oldest first (missing days are left out). */
  daily: DailyPoint[];
  /** Days neither the API nor the day store has, left out of the figures (ISO dates). */
  missingDays: { current: readonly string[]; prior: readonly string[] };
  /**
   * Where its changes moved, by the team's or project's `attribution`: fetched only when one of
   * its figures is news. Absent without attribution or news.
   */
  slices?: ProjectSlices;
}

/** A rate change split by shift-share: the slices' own rates moving, and the runs moving between them. */
export interface RateEffects {
  /** Σ w̄ᵢ·Δrᵢ, in percentage points. */
  ratePp: number;
  /** Σ r̄ᵢ·Δwᵢ, in percentage points. */
  mixPp: number;
}

/** One slice (a branch, an author, a tag set, or the `other` of a partition) in both periods. */
export interface Slice {
  name: string;
  /** The rest of a partition: the unfiltered counts less every declared slice's. */
  other: boolean;
  current: Figures;
  prior: Figures;
  /** Its own changes, each with its own significance test. */
  deltas: Deltas;
  /** A partition slice's share of each rate's change; empty for tags. */
  effects: Partial<Record<RateFigure, RateEffects>>;
}

export type SliceDimension = "branch" | "author" | "tags";

/** A project's changes split along one dimension. */
export interface SliceSplit {
  dimension: SliceDimension;
  /** Branches and authors partition the runs (with `other`); tags overlap and do not. */
  partition: boolean;
  slices: Slice[];
  /** The whole change of each rate, split (partitions only); they add up to the change. */
  effects: Partial<Record<RateFigure, RateEffects>>;
}

/** The splits of a project, in the order branches, authors, tags; a refused split is left out. */
export interface ProjectSlices {
  splits: SliceSplit[];
}

export interface UnavailableProject extends ProjectRef {
  status: "unavailable";
  reason: { code: ErrorCode; message: string };
}

export type ProjectReport = AvailableProject | UnavailableProject;

/** The team's figures, from summed counts of the available projects (never a mean of rates). */
export interface TeamTotal {
  current: Figures;
  prior: Figures | null;
  priorNote: string | null;
  deltas: Deltas;
  daily: DailyPoint[];
  /** Names of projects left out of the total because they were unavailable. */
  excluded: string[];
  /** Names of projects left out of the total (both periods) because they were silent. */
  silent: string[];
}

export type AlertSeverity = "warn" | "critical";

/** An alert that is firing, as shown in a digest. */
export interface FiringAlert {
  alert: string;
  severity: AlertSeverity;
  /** Fraction, like every rate in the model. */
  value: number;
  /** Fraction. */
  threshold: number;
  projectId: string | null;
  /** The metric in words ("flaky rate"); the alert's name stands in without it. */
  metricName?: string;
  /** Which side of the threshold is bad: "below" for pass rates; "above" without it. */
  direction?: "above" | "below";
}

export interface Report {
  team: { name: string; title: string; timezone: string };
  /** The digest's name (or the export's label). */
  digest: string;
  periods: PeriodPair;
  /** ISO instant the report was built for (the fire instant), for "as of" labels. */
  generatedAt: string;
  projects: ProjectReport[];
  total: TeamTotal;
  alerts: FiringAlert[];
  /** Template with {project_id}, or null. */
  dashboardUrl: string | null;
  /** Which days neither the API nor the day store has (they are left out); null when none. */
  missingDaysNote: string | null;
}
