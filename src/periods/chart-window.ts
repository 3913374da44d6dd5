import { addDays } from "./calendar-date.js";
import type { PeriodKind, PeriodPair } from "./types.js";

// How many days a digest's charts show: the digest's period and its comparison window, so the
// current period is read against weeks of ordinary days, not against one prior period alone.

/** Days shown when the config does not say (`charts.window`): 28 days for daily digests, 8 weeks for weekly ones, 16 for monthly ones, 26 for quarterly ones. */
export function defaultChartDays(kind: PeriodKind): number {
  switch (kind) {
    case "previous_day":
    case "since_previous_run":
      return 28;
    case "previous_week":
    case "last_7_days":
      return 56;
    case "previous_month":
    case "last_28_days":
      return 112;
    case "previous_quarter":
      return 182;
  }
}

/** The days a chart draws: `days` up to the current period's end, and never less than both periods. */
export function chartWindow(
  periods: Pick<PeriodPair, "current" | "prior">,
  days: number,
): { start: string; end: string } {
  const end = periods.current.end;
  const back = addDays(end, -(days - 1));
  const earliest = [back, periods.prior.start, periods.current.start].sort()[0] ?? back;
  return { start: earliest, end };
}
