// The emulator's raw data, exposed so tests can recompute every figure on their own.

export interface EmulatorTestResults {
  /** Includes flaky tests (passed on a retry). */
  passed: number;
  failed: number;
  skipped: number;
  flaky: number;
  timedOut: number;
}

export interface EmulatorRun {
  id: string;
  /** UTC instant, ISO 8601 with `Z`. */
  startedAt: string;
  branch: string;
  author: string;
  tags: string[];
  status: "passed" | "failed";
  durationMs: number;
  tests: EmulatorTestResults;
}

export interface EmulatorProject {
  id: string;
  name: string;
  /** Sorted by `startedAt`, oldest first. */
  runs: EmulatorRun[];
  /**
   * The runs of the UTC days that the instants [from, to) touch (ISO strings), sorted: those
   * runs and maybe a few either side, generated only for those days.
   */
  runsBetween(from: string, to: string): EmulatorRun[];
}

/** One request as the emulator saw it. Records whether a key was sent, never its value. */
export interface LoggedRequest {
  method: string;
  /** The full path as received, e.g. `/api/external/v1/projects/pdqmxlz/insights`. */
  path: string;
  /** Query parameters; the first value wins when one is repeated. */
  query: Record<string, string>;
  /** The status sent; 0 while the response is pending, or when the connection was reset. */
  status: number;
  hadKey: boolean;
  /** The injected fault that shaped this response, when there was one. */
  fault?: string;
}
