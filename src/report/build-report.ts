import type { FetchOutcome, ProjectFilters } from "../insights/types.js";
import { periodDays } from "../periods/calendar-date.js";
import { lookbackNote } from "../periods/lookback-note.js";
import type { PeriodPair } from "../periods/types.js";
import { dailySeries, sumDailySeries } from "./daily-series.js";
import { DEFAULT_RULES, deltasBetween } from "./deltas.js";
import { figuresFromCounts, sumFigures } from "./figures.js";
import { missingDaysNote } from "./missing-days-note.js";
import type {
  AvailableProject,
  ChangeRules,
  FiringAlert,
  ProjectReport,
  Report,
  TeamTotal,
} from "./types.js";

export interface ReportProjectInput {
  projectId: string;
  name: string;
  filters: ProjectFilters;
  current: FetchOutcome;
  prior: FetchOutcome;
}

export interface ReportInput {
  team: { name: string; title: string; timezone: string };
  digest: string;
  periods: PeriodPair;
  /** ISO instant the report is for (the fire instant). */
  generatedAt: string;
  dashboardUrl: string | null;
  projects: readonly ReportProjectInput[];
  alerts?: readonly FiringAlert[];
  /** Smallest rate change that is news, in pp (config `min_change_pp`); default 0.5. */
  minChangePp?: number;
}

/**
 * The report a digest shows, from the fetched insights. A project that could not be fetched is
 * listed as unavailable and left out of the team total, which says so; a prior that could not
 * be fetched gives "not available" deltas instead of failing the digest.
 */
export function buildReport(input: ReportInput): Report {
  const rules = changeRules(input.periods, input.minChangePp);
  const projects = input.projects.map((p) => projectReport(p, input.periods, rules));
  const available = projects.filter((p): p is AvailableProject => p.status === "ok");
  const missing = available.map((p) => ({ name: p.name, ...p.missingDays }));
  return {
    team: { ...input.team },
    digest: input.digest,
    periods: input.periods,
    generatedAt: input.generatedAt,
    projects,
    total: teamTotal(projects, input.periods, rules),
    alerts: [...(input.alerts ?? [])],
    dashboardUrl: input.dashboardUrl,
    missingDaysNote: missingDaysNote(missing, available.length),
  };
}

/** The rules a digest judges its changes by: `min_change_pp` and the spans' lengths. */
export function changeRules(periods: PeriodPair, minChangePp?: number): ChangeRules {
  return {
    minChangePp: minChangePp ?? DEFAULT_RULES.minChangePp,
    currentDays: periodDays(periods.current),
    // A median baseline is one span's worth of counts, whatever the weeks it is taken from.
    priorDays: periodDays(periods.baseline?.[0] ?? periods.prior),
  };
}

/**
 * A project's rules: counts are compared per day held, so a period with days missing (neither
 * the API nor the store has them) is not read as fewer runs.
 */
export function heldRules(
  rules: ChangeRules,
  missing: AvailableProject["missingDays"],
): ChangeRules {
  return {
    ...rules,
    currentDays: rules.currentDays - missing.current.length,
    priorDays: rules.priorDays - missing.prior.length,
  };
}

function projectReport(
  input: ReportProjectInput,
  periods: PeriodPair,
  rules: ChangeRules,
): ProjectReport {
  const ref = { projectId: input.projectId, name: input.name, filters: input.filters };
  if (!input.current.ok) {
    const { code, message } = input.current.error;
    return { ...ref, status: "unavailable", reason: { code, message } };
  }
  // The API's own totals for the range, not a re-sum of its day buckets.
  const { overall, days } = input.current.insights;
  const current = figuresFromCounts(overall.runs, overall.tests);
  const missingCurrent = input.current.insights.missingDays ?? [];
  const daily = dailySeries(days, periods.current, missingCurrent);
  if (!input.prior.ok) {
    const note = priorUnavailableNote(input.prior.error);
    const missingDays = { current: missingCurrent, prior: [] };
    return {
      ...ref,
      status: "ok",
      silent: false,
      current,
      prior: null,
      priorNote: note,
      deltas: deltasBetween(current, { unavailable: note }, heldRules(rules, missingDays)),
      daily,
      missingDays,
    };
  }
  const missingDays = {
    current: missingCurrent,
    prior: input.prior.insights.missingDays ?? [],
  };
  const priorOverall = input.prior.insights.overall;
  const prior = figuresFromCounts(priorOverall.runs, priorOverall.tests);
  return {
    ...ref,
    status: "ok",
    silent: prior.runs > 0 && current.runs === 0,
    current,
    prior,
    priorNote: null,
    deltas: deltasBetween(current, prior, heldRules(rules, missingDays)),
    daily,
    missingDays,
  };
}

/** "prior period not available: …", with the API's earliest date when it stated one. */
function priorUnavailableNote(error: { message: string; earliestDate?: string }): string {
  return error.earliestDate !== undefined
    ? lookbackNote(error.earliestDate)
    : `prior period not available: ${error.message}`;
}

/**
 * The team's figures from the summed counts of its available projects. When only some of them
 * have a prior, the deltas compare those projects alone with their prior (like with like), so a
 * missing prior never reads as a jump in runs; the note says which projects were left out.
 * Silent projects are left out of both periods: a suite that stopped would otherwise drop its
 * failures from this period and make the team look better for it.
 */
function teamTotal(
  projects: readonly ProjectReport[],
  periods: PeriodPair,
  rules: ChangeRules,
): TeamTotal {
  const available = projects.filter((p): p is AvailableProject => p.status === "ok" && !p.silent);
  const withPrior = available.filter(
    (p): p is AvailableProject & { prior: NonNullable<AvailableProject["prior"]> } =>
      p.prior !== null,
  );
  const current = sumFigures(available.map((p) => p.current));
  // The team has a day when any of its projects has it.
  const missingDays = {
    current: missingEverywhere(available.map((p) => p.missingDays.current)),
    prior: missingEverywhere(withPrior.map((p) => p.missingDays.prior)),
  };
  const held = heldRules(rules, missingDays);
  const total = {
    current,
    daily: sumDailySeries(
      available.map((p) => p.daily),
      periods.current,
      missingDays.current,
    ),
    excluded: projects.filter((p) => p.status === "unavailable").map((p) => p.name),
    silent: projects.filter((p) => p.status === "ok" && p.silent).map((p) => p.name),
  };

  if (withPrior.length === 0) {
    const notes = [...new Set(available.map((p) => p.priorNote ?? ""))].filter(Boolean);
    const priorNote = notes.length > 0 ? notes.join("; ") : null;
    const deltas = deltasBetween(
      current,
      { unavailable: priorNote ?? "prior period not available" },
      held,
    );
    return { ...total, prior: null, priorNote, deltas };
  }

  const prior = sumFigures(withPrior.map((p) => p.prior));
  if (withPrior.length === available.length) {
    return { ...total, prior, priorNote: null, deltas: deltasBetween(current, prior, held) };
  }
  const missing = available.filter((p) => p.prior === null).map((p) => p.name);
  const compared = sumFigures(withPrior.map((p) => p.current));
  return {
    ...total,
    prior,
    priorNote: `prior period not available for ${missing.join(", ")}; changes compare the other ${withPrior.length} project${withPrior.length === 1 ? "" : "s"} only`,
    deltas: deltasBetween(compared, prior, held),
  };
}

/** The days every list names (none when there are no lists). */
function missingEverywhere(lists: readonly (readonly string[])[]): string[] {
  const [first, ...rest] = lists;
  if (!first) return [];
  return first.filter((date) => rest.every((list) => list.includes(date)));
}
