import { addMonths } from "../periods/calendar-date.js";

// How far back the insights API serves (insights-api.md: "the most recent 3 months"), as one
// fact for the emulator that plays the API, the backfill that starts where it stops, and
// check-config's advice on history.keep.

/** The API's lookback, in calendar months. */
export const API_LOOKBACK_MONTHS = 3;

/**
 * The first date the insights API still serves on `today` (ISO dates), counted as the emulator
 * counts it: a month short of the day ends on its last day, so 31 May less 3 months is 28 February.
 */
export function apiEarliestDate(today: string): string {
  return addMonths(today, -API_LOOKBACK_MONTHS);
}
