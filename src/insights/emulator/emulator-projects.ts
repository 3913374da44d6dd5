import { DateTime } from "luxon";
import type { EmulatorProject, EmulatorRun } from "./emulator-types.js";
import { generateDayRuns, HISTORY_DAYS } from "./generate-runs.js";
import { buildProjectProfiles, type ProjectProfile } from "./project-catalog.js";

/**
 * How many project-days of generated runs are kept in memory. Past it the least recently read
 * are dropped and regenerated on demand (deterministically, so nothing changes but the cost):
 * 500 projects × 100 days would otherwise hold ~850k runs.
 */
const CACHED_DAYS = 4_800;
const DAY_MS = 86_400_000;

/**
 * The emulator's projects. Runs are generated lazily, a UTC day at a time, for the UTC date
 * `anchorDate()` gives (a long-running emulator on the real clock rolls forward), so a
 * 500-project emulator starts at once, and a request for a day or a week pays for those days,
 * not for the project's 100 days of history.
 */
export function createEmulatorProjects(
  seed: string,
  count: number,
  anchorDate: () => string,
): EmulatorProject[] {
  const cache = new Map<string, EmulatorRun[]>();
  const runsOfDay = (profile: ProjectProfile, anchor: string, back: number): EmulatorRun[] => {
    const key = `${anchor}|${profile.id}|${back}`;
    const runs = cache.get(key) ?? generateDayRuns(seed, profile, anchor, back);
    cache.delete(key);
    cache.set(key, runs);
    for (const old of cache.keys()) {
      if (cache.size <= CACHED_DAYS) break;
      cache.delete(old);
    }
    return runs;
  };
  /** Runs of the UTC days from `firstBack` down to `lastBack` days before the anchor, in order. */
  const runsOfDays = (
    profile: ProjectProfile,
    anchor: string,
    firstBack: number,
    lastBack: number,
  ): EmulatorRun[] => {
    const runs: EmulatorRun[] = [];
    for (let back = Math.min(firstBack, HISTORY_DAYS); back >= Math.max(lastBack, 1); back--) {
      runs.push(...runsOfDay(profile, anchor, back));
    }
    return runs;
  };
  return buildProjectProfiles(seed, count).map((profile) => ({
    id: profile.id,
    name: profile.name,
    get runs(): EmulatorRun[] {
      return runsOfDays(profile, anchorDate(), HISTORY_DAYS, 1);
    },
    runsBetween(from: string, to: string): EmulatorRun[] {
      const anchor = anchorDate();
      // How many days before the anchor the UTC day holding an instant is (1: the day before).
      const anchorMs = Date.parse(`${anchor}T00:00:00Z`);
      const dayBack = (ms: number) => Math.floor((anchorMs - ms - 1) / DAY_MS) + 1;
      return runsOfDays(profile, anchor, dayBack(Date.parse(from)), dayBack(Date.parse(to) - 1));
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
