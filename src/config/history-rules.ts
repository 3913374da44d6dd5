import { API_LOOKBACK_MONTHS, apiEarliestDate } from "../insights/api-lookback.js";
import { firstKeptDate, type Retention } from "../periods/retention.js";

// Advice on `history`, for check-config: values the schema accepts but that cost requests.

/**
 * A warning when `history.keep` deletes days the API still serves: they are only asked again
 * (never lost), one request per digest or export that needs them; null when `keep` covers it.
 */
export function shortKeepWarning(keep: Retention, today: string): string | null {
  if (firstKeptDate(today, keep) <= apiEarliestDate(today)) return null;
  return `warning: history.keep "${keep.amount}${keep.unit}" is shorter than the insights API's ${API_LOOKBACK_MONTHS}-month lookback: days deleted from the day store are asked again while the API still serves them — set history.keep to at least "14w" (the default is "2y")`;
}
