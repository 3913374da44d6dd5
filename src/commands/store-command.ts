import type { ResolvedConfig } from "../config/types.js";
import { createApiOnlyClient } from "../create-read-clients.js";
import { createLogger } from "../logger.js";
import { datesIn } from "../periods/calendar-date.js";
import { plural } from "../render/format.js";
import { printableText } from "../render/printable-text.js";
import { nameWithId } from "../render/project-name.js";
import { fitLine } from "../render/terminal/terminal-style.js";
import type { SeriesCoverage } from "../state/day-store.js";
import { openDayStore } from "../state/open/open-day-store.js";
import { storeExists } from "../state/open/open-store.js";
import { loadCommandConfig } from "./command-context.js";
import { terminalWidth } from "./terminal-width.js";

// `store`: what the day store holds, per project, filter set and zone: the project's name, its
// first and last day and how many days in between are not held (what a report of that span
// would lack).

export interface StoreOptions {
  config?: string;
}

/** Asking the API for names is a courtesy: one quick try, never the usual retries. */
const NAME_LOOKUP_TIMEOUT_MS = 10_000;

/** Prints two lines per series held, fitted to the terminal; exit 0. */
export async function storeCommand(
  opts: StoreOptions,
  out: (line: string) => void,
): Promise<number> {
  const config = loadCommandConfig(opts, { requireCredentials: false });
  const width = terminalWidth();
  const say = (line: string) => {
    for (const fitted of fitLine(line, width)) out(fitted);
  };
  if (!storeExists(config.state)) {
    say(`no ledger at ${config.state.path} yet — run \`backfill\` or start the daemon to fill it`);
    return 0;
  }
  const store = await openDayStore(config.state, createLogger({ level: "silent" }));
  try {
    const series = await store.coverage();
    if (series.length === 0) say("the day store is empty — run `backfill` to fill it");
    const names = await projectNames(config, series, say);
    for (const one of series)
      for (const line of storeLines(one, names.get(one.projectId))) say(line);
    return 0;
  } finally {
    await store.close();
  }
}

/**
 * Each held project's name: the config's, else the API's. A store outlives the API's reach
 * and its reachability, so an unanswered API leaves the ids alone, and says so.
 */
async function projectNames(
  config: ResolvedConfig,
  series: readonly SeriesCoverage[],
  say: (line: string) => void,
): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (const team of config.teams)
    for (const project of team.projects) if (project.name) names.set(project.id, project.name);
  if (series.every((one) => names.has(one.projectId))) return names;
  const api = createApiOnlyClient({
    ...config.api,
    maxAttempts: 1,
    timeoutMs: Math.min(config.api.timeoutMs, NAME_LOOKUP_TIMEOUT_MS),
  });
  try {
    for (const project of await api.listProjects())
      if (!names.has(project.id)) names.set(project.id, project.name);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    say(
      `(names not shown, the API did not answer: ${reason} — check INSIGHTS_API_URL and INSIGHTS_API_KEY with \`check-config --online\`, or give each project a name: in the config)`,
    );
  } finally {
    await api.close();
  }
  return names;
}

/**
 * One series: its name and id, filters and zone; then its first and last day and the days
 * missing between them. Made printable: names come from the API.
 */
export function storeLines(one: SeriesCoverage, name?: string): string[] {
  const span = datesIn({ start: one.first, end: one.last }).length;
  const missing = span - one.days;
  const project = nameWithId(name ?? "", one.projectId);
  const filters = describeFilters(one.filters);
  return [
    printableText(`${project}, ${filters}, ${one.timezone}`),
    `  first day ${one.first}, last day ${one.last}: ${plural(one.days, "day")} held, ${missing > 0 ? `${plural(missing, "day")} missing` : "no day missing"}`,
  ];
}

function describeFilters(key: string): string {
  const filters = JSON.parse(key) as {
    branch: string | null;
    author: string | null;
    tags: string[];
  };
  const parts = [
    filters.branch === null ? null : `branch ${filters.branch}`,
    filters.author === null ? null : `author ${filters.author}`,
    filters.tags.length === 0 ? null : `tags ${filters.tags.join(",")}`,
  ].filter((part) => part !== null);
  return parts.length === 0 ? "all runs" : parts.join(", ");
}
