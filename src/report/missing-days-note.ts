import { addDays, periodDays } from "../periods/calendar-date.js";

// Days a report needed that neither the insights API (past its 3 months) nor the day store
// has. They are left out of the figures, and said in one note, never shown as zeros.

/** The days one project lacks, in the period and in the prior period (ISO dates, oldest first). */
export interface ProjectMissingDays {
  name: string;
  current: readonly string[];
  prior: readonly string[];
}

/** Ranges named before the rest are counted: the note stays one line in a Slack context. */
const MAX_RANGES = 4;

/**
 * "No figures for 2025-11-01..2025-11-03 of the prior period: …", naming the projects when
 * not all of them lack the same days; null when no day is missing.
 */
export function missingDaysNote(
  projects: readonly ProjectMissingDays[],
  allProjects: number,
): string | null {
  const groups = new Map<string, { text: string; names: string[] }>();
  for (const project of projects) {
    const parts = [
      project.current.length > 0 ? `${describeDates(project.current)} of the period` : null,
      project.prior.length > 0 ? `${describeDates(project.prior)} of the prior period` : null,
    ].filter((part): part is string => part !== null);
    if (parts.length === 0) continue;
    const text = parts.join(" and ");
    const group = groups.get(text) ?? { text, names: [] };
    group.names.push(project.name);
    groups.set(text, group);
  }
  if (groups.size === 0) return null;
  const lacks = [...groups.values()].map(({ text, names }) =>
    names.length === allProjects ? text : `${text} (${names.join(", ")})`,
  );
  return `No figures for ${lacks.join("; ")}: older than the insights API's 3 months and not in the day store. The figures leave those days out; counts are compared per day held.`;
}

/** "2025-11-01..2025-11-03, 2025-11-09", the first few ranges and a count of the rest. */
function describeDates(dates: readonly string[]): string {
  const ranges: { start: string; end: string }[] = [];
  for (const date of dates) {
    const last = ranges.at(-1);
    if (last && addDays(last.end, 1) === date) last.end = date;
    else ranges.push({ start: date, end: date });
  }
  const named = ranges
    .slice(0, MAX_RANGES)
    .map(({ start, end }) => (start === end ? start : `${start}..${end}`));
  const rest = ranges.slice(MAX_RANGES).reduce((sum, range) => sum + periodDays(range), 0);
  return rest > 0
    ? `${named.join(", ")} and ${rest} more day${rest === 1 ? "" : "s"}`
    : named.join(", ");
}
