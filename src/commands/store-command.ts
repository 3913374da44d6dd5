import { createLogger } from "../logger.js";
import { datesIn } from "../periods/calendar-date.js";
import { printableText } from "../render/printable-text.js";
import type { SeriesCoverage } from "../state/day-store.js";
import { openDayStore } from "../state/open/open-day-store.js";
import { storeExists } from "../state/open/open-store.js";
import { loadCommandConfig } from "./command-context.js";

// `store`: what the day store holds, per project, filter set and zone: its first and last day
// and how many days in between are not held (what a report of that span would lack).

export interface StoreOptions {
  config?: string;
}

/** Prints one line per series held; exit 0. */
export async function storeCommand(
  opts: StoreOptions,
  out: (line: string) => void,
): Promise<number> {
  const config = loadCommandConfig(opts, { requireCredentials: false });
  if (!storeExists(config.state)) {
    out(`no ledger at ${config.state.path} yet — run \`backfill\` or start the daemon to fill it`);
    return 0;
  }
  const store = await openDayStore(config.state, createLogger({ level: "silent" }));
  try {
    const series = await store.coverage();
    if (series.length === 0) out("the day store is empty — run `backfill` to fill it");
    for (const one of series) out(storeLine(one));
    return 0;
  } finally {
    await store.close();
  }
}

/** One series: project, filters and zone (made printable), its first and last day, days missing. */
export function storeLine(one: SeriesCoverage): string {
  const span = datesIn({ start: one.first, end: one.last }).length;
  const filters = describeFilters(one.filters);
  const missing = span - one.days;
  const series = printableText(`${one.projectId}${filters} (${one.timezone})`);
  return `${series}: ${one.first}..${one.last}, ${one.days} days${missing > 0 ? `, ${missing} missing` : ""}`;
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
  return parts.length === 0 ? "" : ` [${parts.join("; ")}]`;
}
