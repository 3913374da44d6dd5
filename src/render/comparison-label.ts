import { periodDays, weekdayOf } from "../periods/calendar-date.js";
import type { PeriodPair } from "../periods/types.js";
import type { Report } from "../report/types.js";
import { formatPeriod } from "./format.js";

/**
 * What the period is compared with, in words: "vs Nov 8, 2026 (same day last week)",
 * "vs previous 7 days (Nov 2 – 8, 2026)", "vs previous month (Oct 1 – 31, 2026)".
 */
export function comparisonLabel(periods: PeriodPair): string {
  const prior = formatPeriod(periods.prior);
  const name = comparisonName(periods);
  // A span just before or a median reads by its name; a same-span-earlier by its dates.
  return periods.baseline || isPreviousSpan(periods)
    ? `vs ${name} (${prior})`
    : `vs ${prior} (${name})`;
}

/**
 * The comparison's name alone, as the digest says it and the workbook's About sheet repeats it:
 * "same day last week", "previous 7 days", "the median of the last 4 Tuesdays".
 */
export function comparisonName(periods: PeriodPair): string {
  const days = periodDays(periods.current);
  if (isWeekBefore(periods)) return `same ${days === 1 ? "day" : "period"} last week`;
  if (periods.baseline) return `the median of ${baselineWords(periods)}`;
  if (periods.compareTo === "same_period_last_year") {
    return `same ${periods.kind === "previous_quarter" ? "quarter" : "period"} last year`;
  }
  return previousSpan(periods.kind, days);
}

function isWeekBefore(periods: PeriodPair): boolean {
  const weekBefore = periods.prior.start < periods.current.start && daysApart(periods) === 7;
  return (
    periods.compareTo === "same_period_last_week" ||
    (periods.kind === "since_previous_run" && weekBefore)
  );
}

function isPreviousSpan(periods: PeriodPair): boolean {
  return !isWeekBefore(periods) && periods.compareTo !== "same_period_last_year";
}

/** Weekdays as plural nouns, Monday first (luxon's weekday 1): "the last 4 Thursdays". */
export const WEEKDAYS = [
  "Mondays",
  "Tuesdays",
  "Wednesdays",
  "Thursdays",
  "Fridays",
  "Saturdays",
  "Sundays",
];

/**
 * What a median baseline is made of: "the last 4 Tuesdays" (a day), "the previous 4 weeks"
 * (a week), "the same days of the previous 4 weeks" (a span of 2 to 6 days).
 */
function baselineWords(periods: PeriodPair): string {
  const weeks = periods.baseline?.length ?? 0;
  const days = periodDays(periods.current);
  if (days === 1) return `the last ${weeks} ${WEEKDAYS[weekdayOf(periods.current.start) - 1]}`;
  if (days === 7) return `the previous ${weeks} weeks`;
  return `the same days of the previous ${weeks} weeks`;
}

function daysApart(periods: PeriodPair): number {
  return periodDays({ start: periods.prior.start, end: periods.current.start }) - 1;
}

function previousSpan(kind: PeriodPair["kind"], days: number): string {
  if (kind === "previous_week") return "previous week";
  if (kind === "previous_month") return "previous month";
  if (kind === "previous_quarter") return "previous quarter";
  return days === 1 ? "previous day" : `previous ${days} days`;
}

/**
 * Projects compared with nothing because their own prior could not be fetched, grouped by
 * note; the team's own note (shown on its own) is left out. Names are as given: escape them.
 */
export function projectPriorNotes(report: Report): { note: string; names: string[] }[] {
  const byNote = new Map<string, string[]>();
  for (const project of report.projects) {
    if (project.status !== "ok" || project.priorNote === null) continue;
    if (project.priorNote === report.total.priorNote) continue;
    byNote.set(project.priorNote, [...(byNote.get(project.priorNote) ?? []), project.name]);
  }
  return [...byNote].map(([note, names]) => ({ note, names }));
}
