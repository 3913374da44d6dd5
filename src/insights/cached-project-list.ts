import type { InsightsApi, ProjectSummary } from "./types.js";

// The project list, kept across ticks: the names change seldom, and a thousand teams a minute
// asking for it would spend the request budget on the same pages. It is fetched again after
// an hour, or when a project is asked for that it does not list (one added to the workspace
// and the config), though not more than once a minute for an id the API does not know.

const MAX_AGE_MS = 3_600_000;
const UNKNOWN_ID_REFRESH_MS = 60_000;

export interface ProjectListCacheOptions {
  /** Epoch milliseconds. */
  now?: () => number;
  maxAgeMs?: number;
}

/** `api` with its project list kept for the process (see above); everything else as is. */
export function withProjectListCache<T extends InsightsApi>(
  api: T,
  options: ProjectListCacheOptions = {},
): T {
  const now = options.now ?? Date.now;
  const maxAgeMs = options.maxAgeMs ?? MAX_AGE_MS;
  let held: { at: number; list: Promise<ProjectSummary[]> } | null = null;

  function refresh(): Promise<ProjectSummary[]> {
    const fetched = { at: now(), list: api.listProjects() };
    held = fetched;
    // A failed fetch is not kept: the next caller asks again.
    fetched.list.catch(() => {
      if (held === fetched) held = null;
    });
    return fetched.list;
  }

  async function listProjects(
    query: { including?: readonly string[] } = {},
  ): Promise<ProjectSummary[]> {
    const current = held;
    if (!current || now() - current.at >= maxAgeMs) return refresh();
    const list = await current.list;
    const ids = new Set(list.map((p) => p.id));
    const unknown = (query.including ?? []).some((id) => !ids.has(id));
    if (unknown && held === current && now() - current.at >= UNKNOWN_ID_REFRESH_MS) {
      return refresh();
    }
    return held === current ? list : (held?.list ?? list);
  }

  return new Proxy(api, {
    get(target, property) {
      if (property === "listProjects") return listProjects;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
