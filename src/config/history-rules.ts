import { firstKeptDate, type Retention } from "../periods/retention.js";

// Advice on `history`, for check-config: values the schema accepts but that cost requests.

/** How far back the insights API serves: its 3 calendar months (README "History"). */
const API_LOOKBACK_MONTHS = 3;

/** The first date the insights API still serves on `today` (ISO dates). */
export function apiEarliestDate(today: string): string {
  const [year, month, day] = today.split("-").map(Number) as [number, number, number];
  const date = new Date(Date.UTC(2000, 0, 1));
  // A day the earlier month lacks (31 May → 31 Feb) rolls on into the next month: the later day.
  date.setUTCFullYear(year, month - 1 - API_LOOKBACK_MONTHS, day);
  return date.toISOString().slice(0, 10);
}

/**
 * A warning when `history.keep` deletes days the API still serves: they are only asked again
 * (never lost), one request per digest or export that needs them; null when `keep` covers it.
 */
export function shortKeepWarning(keep: Retention, today: string): string | null {
  if (firstKeptDate(today, keep) <= apiEarliestDate(today)) return null;
  return `warning: history.keep "${keep.amount}${keep.unit}" is shorter than the insights API's ${API_LOOKBACK_MONTHS}-month lookback: days deleted from the day store are asked again while the API still serves them — set history.keep to at least "14w" (the default is "2y")`;
}
