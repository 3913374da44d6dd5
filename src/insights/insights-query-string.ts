import type { InsightsQuery } from "./types.js";

/** `?start_date=…&end_date=…&timezone=…`, then `branch`, `author`, `tags` (one comma-separated value) when set. */
export function insightsQueryString(query: InsightsQuery): string {
  const parts = [
    `start_date=${encodeURIComponent(query.startDate)}`,
    `end_date=${encodeURIComponent(query.endDate)}`,
    `timezone=${encodeURIComponent(query.timezone)}`,
  ];
  if (query.branch !== null) parts.push(`branch=${encodeURIComponent(query.branch)}`);
  if (query.author !== null) parts.push(`author=${encodeURIComponent(query.author)}`);
  // Commas stay literal: the API reads `tags` as one comma-separated list.
  if (query.tags.length > 0) parts.push(`tags=${query.tags.map(encodeURIComponent).join(",")}`);
  return `?${parts.join("&")}`;
}
