import { addDays, periodDays } from "../periods/calendar-date.js";
import type { Period, PeriodPair } from "../periods/types.js";
import type { AvailableProject, Report } from "../report/types.js";
import { formatCount, formatPeriod } from "./format.js";

// A suite that stopped running is the most urgent news a digest carries (PRODUCT.md "silent"):
// every renderer names it first, in these words, before any figure. Names are as given: each
// renderer escapes them for its medium.

/** One silent project: its name and the sentence after it. */
export interface SilentNews {
  projectId: string;
  name: string;
  /** "had no runs on Nov 22 (3 the day before)". */
  what: string;
}

/** The silent projects of a report, in the report's order, with what to say about each. */
export function silentNews(report: Report): SilentNews[] {
  return report.projects
    .filter((p): p is AvailableProject => p.status === "ok" && p.silent)
    .map((p) => ({
      projectId: p.projectId,
      name: p.name,
      what: silentWhat(p.prior?.runs ?? 0, report.periods),
    }));
}

/** "Mobile smoke had no runs on Nov 22 (3 the day before)". */
export function silentSentence(news: SilentNews): string {
  return `${news.name} ${news.what}`;
}

/** The note under the team figures: silent projects are not in them. */
export function silentTotalsNote(report: Report): string | null {
  const names = report.total.silent;
  if (names.length === 0) return null;
  return `Team figures leave out ${names.join(", ")} (silent: no runs this period), in both periods`;
}

function silentWhat(priorRuns: number, periods: PeriodPair): string {
  const { current, prior } = periods;
  const when =
    periodDays(current) === 1 ? `on ${shortDate(current)}` : `in ${formatPeriod(current)}`;
  return `had no runs ${when} (${formatCount(priorRuns)} ${priorWords(current, prior)})`;
}

function priorWords(current: Period, prior: Period): string {
  const days = periodDays(current);
  if (prior.end === addDays(current.start, -1) && periodDays(prior) === days) {
    return days === 1 ? "the day before" : `the ${days} days before`;
  }
  if (prior.start === addDays(current.start, -7) && prior.end === addDays(current.end, -7)) {
    return days === 1 ? "the same day a week before" : "the same days a week before";
  }
  return `in ${formatPeriod(prior)}`;
}

// "Nov 22": the year is in the digest's header already.
function shortDate(period: Period): string {
  return formatPeriod(period).replace(/, \d{4}$/, "");
}
