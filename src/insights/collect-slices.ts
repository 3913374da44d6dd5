import type { Period } from "../periods/types.js";
import { fetchPeriodPair, type RequestCache } from "./collect-insights.js";
import type { Attribution, FetchOutcome, InsightsApi, ProjectSelection } from "./types.js";

// The slices of one project (issue 37): each declared branch, author and tag set is a filter
// set of its own, asked for both periods through the same API (and so the day store) and
// request cache as the digest's own figures.

/** A slice to fetch: its dimension, its name as shown, and the project's filters with it. */
export interface SliceQuery {
  dimension: "branch" | "author" | "tags";
  name: string;
  project: ProjectSelection;
}

/** What one slice's two fetches gave. */
export interface FetchedSliceOutcome {
  dimension: SliceQuery["dimension"];
  name: string;
  current: FetchOutcome;
  prior: FetchOutcome;
}

/**
 * The slices of a project's attribution as filter sets. A dimension the project already filters
 * on is not split (every slice of it but one would be empty); tag sets add to its own tags.
 */
export function sliceQueries(project: ProjectSelection, attribution: Attribution): SliceQuery[] {
  const branches = project.branch === null ? attribution.branches : [];
  const authors = project.author === null ? attribution.authors : [];
  return [
    ...branches.map((branch) => ({
      dimension: "branch" as const,
      name: branch,
      project: { ...project, branch },
    })),
    ...authors.map((author) => ({
      dimension: "author" as const,
      name: author,
      project: { ...project, author },
    })),
    ...attribution.tags.map((tags) => ({
      dimension: "tags" as const,
      name: tags.join(" + "),
      project: { ...project, tags: [...new Set([...project.tags, ...tags])] },
    })),
  ];
}

/** Every slice of a project over the current and the prior period. */
export async function collectSlices(
  api: InsightsApi,
  queries: readonly SliceQuery[],
  timezone: string,
  periods: { current: Period; prior: Period },
  cache: RequestCache,
): Promise<FetchedSliceOutcome[]> {
  return Promise.all(
    queries.map(async ({ dimension, name, project }) => {
      const [current, prior] = await fetchPeriodPair(api, project, timezone, periods, cache);
      return { dimension, name, current, prior };
    }),
  );
}
