import { addMonths } from "../periods/calendar-date.js";
import { firstKeptDate, type Retention } from "../periods/retention.js";

// Advice on `history`, for check-config: values the schema accepts but that cost requests.

/** How far back the insights API serves: its 3 calendar months (README "History"). */
const API_LOOKBACK_MONTHS = 3;

/** The first date the insights API still serves on `today` (ISO dates). */
export function apiEarliestDate(today: string): string {
  // As the API counts (the emulator holds it): 31 May less 3 months is 28 February.
  return addMonths(today, -API_LOOKBACK_MONTHS);
}

/**
 * A warning when `history.keep` deletes days the API still serves: they are only asked again
 * (never lost), one request per digest or export that needs them; null when `keep` covers it.
 */
export function shortKeepWarning(keep: Retention, today: string): string | null {
  if (firstKeptDate(today, keep) <= apiEarliestDate(today)) return null;
  return `warning: history.keep "${keep.amount}${keep.unit}" is shorter than the insights API's ${API_LOOKBACK_MONTHS}-month lookback: days deleted from the day store are asked again while the API still serves them — set history.keep to at least "14w" (the default is "2y")`;
}
