import { DateTime } from "luxon";
import type { EmulatorProject, EmulatorRun } from "./emulator-types.js";
import { generateRuns } from "./generate-runs.js";
import { buildProjectProfiles, type ProjectProfile } from "./project-catalog.js";

/**
 * How many projects keep their generated runs in memory. Past it the least recently read are
 * dropped and regenerated on demand (deterministically, so nothing changes but the cost):
 * 500 projects × 100 days would otherwise hold ~850k runs.
 */
const CACHED_PROJECTS = 48;

/**
 * The emulator's projects. Runs are generated lazily, on a read of `runs`, for the UTC date
 * `anchorDate()` gives (a long-running emulator on the real clock rolls forward), so a
 * 500-project emulator starts at once and pays only for the projects asked about.
 */
export function createEmulatorProjects(
  seed: string,
  count: number,
  anchorDate: () => string,
): EmulatorProject[] {
  const cache = new Map<string, { anchor: string; runs: EmulatorRun[] }>();
  const runsOf = (profile: ProjectProfile): EmulatorRun[] => {
    const anchor = anchorDate();
    let entry = cache.get(profile.id);
    cache.delete(profile.id);
    if (entry?.anchor !== anchor) entry = { anchor, runs: generateRuns(seed, profile, anchor) };
    cache.set(profile.id, entry);
    for (const id of cache.keys()) {
      if (cache.size <= CACHED_PROJECTS) break;
      cache.delete(id);
    }
    return entry.runs;
  };
  return buildProjectProfiles(seed, count).map((profile) => ({
    id: profile.id,
    name: profile.name,
    get runs(): EmulatorRun[] {
      return runsOf(profile);
    },
  }));
}

/** "Today" in a zone: the fixed date when one is given (the same in every zone), else the clock's. */
export function todayResolver(
  today: string | undefined,
  now: () => Date,
): (zone: string) => string {
  if (today !== undefined) return () => today;
  return (zone) =>
    DateTime.fromJSDate(now(), { zone }).toISODate() ?? now().toISOString().slice(0, 10);
}
