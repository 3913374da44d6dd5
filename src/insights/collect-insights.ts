import {
  AuthError,
  InvalidRangeError,
  isProjectScopedError,
  LookbackError,
  type ReporterError,
} from "../errors.js";
import { addDays } from "../periods/calendar-date.js";
import type { Period, PeriodPair } from "../periods/types.js";
import { apiEarliestDate } from "./api-lookback.js";
import { insightsWithin } from "./insights-within.js";
import { medianOutcome } from "./median-insights.js";
import type {
  FetchOutcome,
  InsightsApi,
  InsightsQuery,
  ProjectFilters,
  ProjectInsights,
  ProjectSelection,
  ProjectSummary,
} from "./types.js";

/**
 * The insights a report needs, fetched once. A `RequestCache` lives for one run (one CLI
 * command, one daemon tick): digests and teams asking for the same project, filters, zone and
 * dates share one request, and the project list is fetched at most once.
 */
export interface RequestCache {
  insights: Map<string, Promise<ProjectInsights>>;
  projectList: Promise<ProjectSummary[]> | null;
  /**
   * Reads of a destination that every slot of the run shares, by the destination's own key
   * (Slack: a channel's posts since a time, read once per channel per tick; see findPosted).
   */
  reads: Map<string, unknown>;
  /**
   * The requests of `insights` by series (project, filters, zone), with their dates: a period
   * inside one of them is cut from its answer rather than asked (a digest's chart window holds
   * its period and the prior one).
   */
  spans: Map<string, { start: string; end: string; request: Promise<ProjectInsights> }[]>;
}

export function createRequestCache(): RequestCache {
  return { insights: new Map(), projectList: null, reads: new Map(), spans: new Map() };
}

/** Lets go of the run's fetched insights (their days), keeping the project list and reads. */
export function forgetInsights(cache: RequestCache): void {
  cache.insights.clear();
  cache.spans.clear();
}

/** One configured project's fetched insights, ready for `buildReport`. */
export interface CollectedProject {
  projectId: string;
  name: string;
  filters: ProjectFilters;
  current: FetchOutcome;
  prior: FetchOutcome;
}

export interface CollectOptions {
  /** The list-projects call failed: names fall back to ids. */
  onProjectListError?: (error: unknown) => void;
  /** A project's two fetches are done (for progress bars). */
  onProjectDone?: (done: number, total: number) => void;
}

/**
 * Fetches current and prior insights of every project of the team. A project that fails
 * (not found, upstream down, malformed) becomes an error outcome; an `AuthError` stops the
 * whole run, since no project can be fetched with a refused key.
 */
export async function collectInsights(
  api: InsightsApi,
  team: { projects: readonly ProjectSelection[]; timezone: string },
  periods: Pick<PeriodPair, "current" | "prior" | "baseline">,
  cache: RequestCache,
  options: CollectOptions = {},
): Promise<CollectedProject[]> {
  // The names are needed only once the figures are in: the insights requests do not wait for
  // the list (pages of it, one after another), so the concurrency limit is used from the start.
  const names = projectNames(api, team.projects, cache, options.onProjectListError ?? (() => {}));
  let done = 0;
  const fetched = Promise.all(
    team.projects.map(async (project) => {
      const baseline = periods.baseline;
      const [current, prior] = baseline
        ? await Promise.all([
            fetchOutcome(api, project, team.timezone, periods.current, cache),
            Promise.all(
              baseline.map((span) => fetchOutcome(api, project, team.timezone, span, cache)),
            ).then((spans) => medianOutcome(spans, periods.prior)),
          ])
        : await fetchPeriodPair(api, project, team.timezone, periods, cache);
      done += 1;
      options.onProjectDone?.(done, team.projects.length);
      return { project, current, prior };
    }),
  );
  const [byId, outcomes] = await Promise.all([names, fetched]);
  return outcomes.map(({ project, current, prior }) => ({
    projectId: project.id,
    name: project.name ?? byId.get(project.id) ?? project.id,
    filters: { branch: project.branch, author: project.author, tags: project.tags },
    current,
    prior,
  }));
}

/**
 * Every project's insights over one more span (a chart's window), by project id, through the
 * same request cache, so a digest and an alert of the run asking for the same days share one
 * request, and a day store behind `api` serves the days it holds.
 */
export async function collectSpan(
  api: InsightsApi,
  team: { projects: readonly ProjectSelection[]; timezone: string },
  period: Period,
  cache: RequestCache,
): Promise<Map<string, FetchOutcome>> {
  const outcomes = await Promise.all(
    team.projects.map(
      async (project) =>
        [project.id, await fetchOutcome(api, project, team.timezone, period, cache)] as const,
    ),
  );
  return new Map(outcomes);
}

/**
 * One project's insights over one span, through the run's request cache; an error scoped to
 * the project becomes an error outcome, a refused key stops the run.
 */
export function fetchOutcome(
  api: InsightsApi,
  project: ProjectSelection,
  timezone: string,
  period: Period,
  cache: RequestCache,
): Promise<FetchOutcome> {
  const query = spanQuery(project, timezone, period);
  return outcomeOf(cached(cache, project.id, query, () => api.getInsights(project.id, query)));
}

/**
 * One project's insights over a current period and the prior one, through the run's request
 * cache. When neither is asked yet, both are cut from one answer (`insightsWithin`): a request
 * of the run that holds both (the digest's chart window, asked first), else, when the prior
 * ends the day before the current starts, one request for both: half the requests of a cycle
 * of daily digests. A range the API refuses as such (past its lookback, after its today), or
 * answers with days missing, leaves each period to be asked on its own, as it would have been,
 * as does any failure of a request another asked.
 */
export async function fetchPeriodPair(
  api: InsightsApi,
  project: ProjectSelection,
  timezone: string,
  periods: { current: Period; prior: Period },
  cache: RequestCache,
): Promise<[FetchOutcome, FetchOutcome]> {
  const { current, prior } = periods;
  const queries = [current, prior].map((period) => spanQuery(project, timezone, period));
  const alone = (query: InsightsQuery) => () => api.getInsights(project.id, query);
  let ask = alone;
  // A range longer than the API's lookback is refused whatever its end: not tried (an export's
  // years, whose days the day store holds, are read period by period as before).
  const adjacent =
    addDays(prior.end, 1) === current.start && prior.start >= apiEarliestDate(current.end);
  const both = { start: prior.start, end: current.end };
  const holding = coveringRequest(cache, project.id, spanQuery(project, timezone, both), both);
  if (
    (holding || adjacent) &&
    !queries.some((query) => cache.insights.has(requestKey(project.id, query)))
  ) {
    // A union asked here is not kept in the run's cache: only its two periods are, each
    // holding its own days.
    const range = holding ?? alone(spanQuery(project, timezone, both))();
    ask = (query) => () =>
      range.then(
        (insights) =>
          insightsWithin(insights, { start: query.startDate, end: query.endDate }) ??
          alone(query)(),
        (error: unknown) => {
          // Another's request (a chart window) failing takes nothing from the periods.
          const asRange = error instanceof LookbackError || error instanceof InvalidRangeError;
          if (asRange || (holding && !(error instanceof AuthError))) return alone(query)();
          throw error;
        },
      );
  }
  const [currentOutcome, priorOutcome] = await Promise.all(
    queries.map((query) => outcomeOf(cached(cache, project.id, query, ask(query)))),
  );
  return [currentOutcome as FetchOutcome, priorOutcome as FetchOutcome];
}

function spanQuery(project: ProjectSelection, timezone: string, period: Period): InsightsQuery {
  return {
    startDate: period.start,
    endDate: period.end,
    timezone,
    branch: project.branch,
    author: project.author,
    tags: project.tags,
  };
}

/** Tags all have to match, so their order is no part of the request's identity. */
function requestKey(projectId: string, query: InsightsQuery): string {
  return JSON.stringify([projectId, { ...query, tags: [...query.tags].sort() }]);
}

/** The series a request reads: its project, filters and zone, without its dates. */
function seriesKey(projectId: string, query: InsightsQuery): string {
  const { branch, author, timezone } = query;
  return JSON.stringify([projectId, timezone, branch, author, [...query.tags].sort()]);
}

/** A request of the run over the same series whose dates hold `span`, or null. */
function coveringRequest(
  cache: RequestCache,
  projectId: string,
  query: InsightsQuery,
  span: Period,
): Promise<ProjectInsights> | null {
  const asked = cache.spans.get(seriesKey(projectId, query)) ?? [];
  return asked.find((a) => a.start <= span.start && a.end >= span.end)?.request ?? null;
}

/** The run's request for `query`, made by `ask` if no one asked it yet. */
function cached(
  cache: RequestCache,
  projectId: string,
  query: InsightsQuery,
  ask: () => Promise<ProjectInsights>,
): Promise<ProjectInsights> {
  const key = requestKey(projectId, query);
  let request = cache.insights.get(key);
  if (!request) {
    request = ask();
    cache.insights.set(key, request);
    const series = seriesKey(projectId, query);
    const asked = cache.spans.get(series) ?? [];
    asked.push({ start: query.startDate, end: query.endDate, request });
    cache.spans.set(series, asked);
  }
  return request;
}

async function outcomeOf(request: Promise<ProjectInsights>): Promise<FetchOutcome> {
  try {
    return { ok: true, insights: await request };
  } catch (error) {
    if (error instanceof AuthError) throw error;
    if (!isProjectScopedError(error)) throw error;
    return { ok: false, error: describe(error) };
  }
}

function describe(error: ReporterError): Extract<FetchOutcome, { ok: false }>["error"] {
  if (error instanceof LookbackError) {
    return { code: error.code, message: error.message, earliestDate: error.earliestDate };
  }
  return { code: error.code, message: error.message };
}

/** Names from the list-projects operation, only when some project has no name in config. */
async function projectNames(
  api: InsightsApi,
  projects: readonly ProjectSelection[],
  cache: RequestCache,
  onError: (error: unknown) => void,
): Promise<Map<string, string>> {
  const unnamed = projects.filter((p) => p.name === null).map((p) => p.id);
  if (unnamed.length === 0) return new Map();
  try {
    const askedByOther = cache.projectList !== null;
    cache.projectList ??= api.listProjects({ including: unnamed });
    let list = await cache.projectList;
    // A project the list another team asked for does not name: the client's list kept across
    // ticks may be older than the project (see cached-project-list.ts); asked again for it.
    if (askedByOther && unnamed.some((id) => !list.some((p) => p.id === id))) {
      list = await api.listProjects({ including: unnamed });
    }
    return new Map(list.map((p) => [p.id, p.name]));
  } catch (error) {
    if (error instanceof AuthError) throw error;
    onError(error);
    return new Map();
  }
}
