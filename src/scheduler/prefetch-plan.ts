import { baselineSpans } from "../alerts/baseline-windows.js";
import { apiEarliestDate } from "../insights/api-lookback.js";
import type { InsightsQuery } from "../insights/types.js";
import { addDays, datesIn, localDateOf } from "../periods/calendar-date.js";
import { chartWindow } from "../periods/chart-window.js";
import { type DateRange, isFinalDay, recentWindow } from "../periods/plan-day-fetches.js";
import type { Period } from "../periods/types.js";
import { alertSlot } from "../pipeline/alert/alert-slot.js";
import { alertSpans } from "../pipeline/alert/evaluate-stage.js";
import { digestSlot } from "../pipeline/digest/digest-slot.js";
import { type DaySeries, dayFilterKey } from "../state/day-store.js";
import type { ScheduledJob } from "./jobs.js";

// Which days to fetch into the day store ahead of a fire: the days the fire will ask the API
// for (its period, prior or baseline, chart window; an alert's trend, prior and baseline) that
// will be final when it fires and are settled already now. The days of the fire's recent window
// (`recentWindow`) are left out: the fire asks for them as one request whatever the store holds,
// since its last day or two are not settled yet. So once these are in, a fire asks only for that.

/** One project's days under its filters in a team's zone, as the day store and the API name it. */
export interface PrefetchSeries {
  series: DaySeries;
  query: Omit<InsightsQuery, "startDate" | "endDate">;
}

/** The spans a fire of `job` asks the API for, as its run does. */
export function spansOfFire(job: ScheduledJob, fireAt: Date): Period[] {
  if (job.kind === "digest") {
    const { periods } = digestSlot({ team: job.team, digest: job.digest, fireAt });
    const charts = job.digest.charts;
    return [
      periods.current,
      ...(periods.baseline ?? [periods.prior]),
      ...(charts ? [chartWindow(periods, charts.windowDays)] : []),
    ];
  }
  const { window } = alertSlot({ team: job.team, alert: job.alert, fireAt });
  const { trend, prior } = alertSpans(window);
  return [trend, prior, ...(job.alert.against ? baselineSpans(window) : [])];
}

/** The series a job's fires ask for: each project of its team, with its filters, in its zone. */
export function seriesOfJob(job: ScheduledJob): PrefetchSeries[] {
  const timezone = job.team.timezone;
  return job.team.projects.map((project) => ({
    series: { projectId: project.id, filters: dayFilterKey(project), timezone },
    query: { timezone, branch: project.branch, author: project.author, tags: project.tags },
  }));
}

export interface SettledAheadInput {
  spans: readonly Period[];
  timezone: string;
  nowMs: number;
  settleAfterMs: number;
}

/**
 * The days of `spans` that a fetch now holds final and that no later fire asks for in its
 * recent window: those before today's recent window, which starts no later than any later
 * fire's, and which the API still serves.
 */
export function settledDaysAhead(input: SettledAheadInput): string[] {
  const { timezone, nowMs, settleAfterMs } = input;
  const window = recentWindow(nowMs, timezone, settleAfterMs);
  // From the first day the API serves, as the backfill and the day store count it.
  const served = apiEarliestDate(localDateOf(new Date(nowMs), timezone));
  const days = new Set<string>();
  for (const span of input.spans) {
    const end = span.end < window.start ? span.end : addDays(window.start, -1);
    const start = span.start > served ? span.start : served;
    if (start > end) continue;
    for (const date of datesIn({ start, end })) {
      if (isFinalDay(date, timezone, nowMs, settleAfterMs)) days.add(date);
    }
  }
  return [...days].sort();
}

/** Sorted dates as runs of consecutive days, each at most `maxDays` long. */
export function rangesOf(dates: readonly string[], maxDays: number): DateRange[] {
  const ranges: DateRange[] = [];
  let length = 0;
  for (const date of dates) {
    const last = ranges.at(-1);
    if (last && addDays(last.end, 1) === date && length < maxDays) {
      last.end = date;
      length += 1;
    } else {
      ranges.push({ start: date, end: date });
      length = 1;
    }
  }
  return ranges;
}
