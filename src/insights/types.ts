import type { ErrorCode } from "../errors.js";
// Our own view of the insights API, in camelCase. The wire format (snake_case, `%b %e, %Y`
// dates, omitted fields on empty days) is checked and mapped in `response-schema.ts` and
// never seen past the client.

/** Filters a configured project passes to the API as-is. */
export interface ProjectFilters {
  branch: string | null;
  author: string | null;
  tags: readonly string[];
}

/** The slices a project's changes are split by (config `attribution`); an empty list: none. */
export interface Attribution {
  branches: readonly string[];
  authors: readonly string[];
  /** Each a tag set, as the `tags` filter takes it. */
  tags: readonly (readonly string[])[];
}

/** A project of a team as the insights are fetched for it: its id, config name and filters. */
export interface ProjectSelection extends ProjectFilters {
  id: string;
  /** From config; null means "take it from the API, else the id". */
  name: string | null;
  /** Its own `attribution`, else its team's; null (or absent) when neither declares one. */
  attribution?: Attribution | null;
}

/** What fetching one project's insights for one period gave: the insights, or why not. */
export type FetchOutcome =
  | { ok: true; insights: ProjectInsights }
  | { ok: false; error: { code: ErrorCode; message: string; earliestDate?: string } };

export interface InsightsQuery extends ProjectFilters {
  /** ISO date, inclusive, in `timezone`. */
  startDate: string;
  /** ISO date, inclusive, in `timezone`. */
  endDate: string;
  /** IANA zone; always sent explicitly. */
  timezone: string;
}

export interface RunCounts {
  passed: number;
  failed: number;
  /** Mean run duration in milliseconds; null when there were no runs. */
  meanDurationMs: number | null;
}

/** Test results. `passed` includes flaky; a result is one of passed, failed, skipped, timed out. */
export interface TestCounts {
  passed: number;
  failed: number;
  skipped: number;
  flaky: number;
  timedOut: number;
}

/** One day bucket. `runs`/`tests` are null on a day the API sent with only `date`. */
export interface InsightsDay {
  /** ISO date in the requested zone. */
  date: string;
  runs: RunCounts | null;
  tests: TestCounts | null;
}

export interface ProjectInsights {
  projectId: string;
  /** Effective range after the API's clamping. */
  startDate: string;
  endDate: string;
  timezone: string;
  /** Every day of the range, oldest first. */
  days: InsightsDay[];
  /** The API's own totals for the range (zero counts when it had none). */
  overall: { runs: RunCounts; tests: TestCounts };
  /**
   * Days of the range that neither the API (past its lookback) nor the day store has, oldest
   * first: left out of `days` and the totals. Absent when every day is there.
   */
  missingDays?: readonly string[];
}

export interface ProjectSummary {
  id: string;
  name: string;
}

/** What the rest of the code needs from the insights API. The real client and test doubles implement it. */
export interface InsightsApi {
  getInsights(projectId: string, query: InsightsQuery): Promise<ProjectInsights>;
  /**
   * Every project of the workspace. `including`: ids the caller needs named; a list kept
   * across calls (cached-project-list.ts) is fetched again when one is missing from it.
   */
  listProjects(query?: { including?: readonly string[] }): Promise<ProjectSummary[]>;
}
