import type { Period } from "./types.js";

/** The note shown instead of prior figures when the API's lookback does not reach the prior period. */
export function lookbackNote(earliestDate: string): string {
  return `prior period not available: insights go back to ${earliestDate}`;
}

/**
 * Whether `period` can be asked for, given the earliest start date the API stated (from a
 * `LookbackError`). A period starting earlier is not clamped: a shorter span would make
 * every comparison with it misleading, so it is reported as unavailable instead.
 */
export function applyLookback(
  period: Period,
  earliestDate: string,
): { period: Period } | { unavailable: string } {
  // ISO dates compare correctly as strings.
  return period.start < earliestDate ? { unavailable: lookbackNote(earliestDate) } : { period };
}
