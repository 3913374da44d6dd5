import type { EmulatorRun } from "./emulator-types.js";
import type { ProjectProfile } from "./project-catalog.js";
import { createRandom, type Random } from "./seeded-random.js";

/** Runs cover the 100 UTC days before "today"; more than the 3-month lookback plus any zone shift. */
export const HISTORY_DAYS = 100;

const DAY_MS = 86_400_000;
/** Chance that a day is bad for every project at once (an infrastructure outage). */
const OUTAGE_CHANCE = 0.03;
/** Chance that a day is bad for one project (a broken merge). */
const BAD_DAY_CHANCE = 0.03;

/**
 * The runs of one project over the `HISTORY_DAYS` UTC days before `today` (ISO date), oldest
 * first. Each day is drawn from its own seeded source, so the data is the same for a seed and
 * today however often or lazily it is generated.
 */
export function generateRuns(seed: string, profile: ProjectProfile, today: string): EmulatorRun[] {
  const runs: EmulatorRun[] = [];
  for (let back = HISTORY_DAYS; back >= 1; back--) {
    runs.push(...generateDayRuns(seed, profile, today, back));
  }
  return runs;
}

/**
 * The runs of one project on the UTC day `back` days before `today` (1 is yesterday), oldest
 * first: the same runs `generateRuns` gives for that day. None outside the history.
 */
export function generateDayRuns(
  seed: string,
  profile: ProjectProfile,
  today: string,
  back: number,
): EmulatorRun[] {
  if (profile.empty || back < 1 || back > HISTORY_DAYS) return [];
  const todayMs = Date.parse(`${today}T00:00:00Z`);
  const dayMs = todayMs - back * DAY_MS;
  const date = new Date(dayMs).toISOString().slice(0, 10);
  const progress = (HISTORY_DAYS - back) / (HISTORY_DAYS - 1);
  const day: DayTraits = {
    date,
    runIdPrefix: `${profile.id}-${date.replaceAll("-", "")}-`,
    dayMs,
    bad:
      isOutage(seed, date) ||
      createRandom(`${seed}|bad|${profile.id}|${date}`).chance(BAD_DAY_CHANCE),
    flakyRate:
      profile.spike?.[profile.spike.length - back] ??
      profile.flakyFrom + (profile.flakyTo - profile.flakyFrom) * progress,
    slower: profile.creep
      ? 1 + Math.max(0, profile.creep.fromDaysBack - back) * profile.creep.perDay
      : 1,
    branchFlakyRate: branchFlakyRate(profile.risingBranch, back),
  };
  const runs = generateDay(createRandom(`${seed}|runs|${profile.id}|${date}`), profile, day);
  const stops = profile.stopsMsBeforeToday;
  if (stops === null) return runs;
  return runs.filter((run) => Date.parse(run.startedAt) < todayMs - stops);
}

interface DayTraits {
  date: string;
  /** `<project id>-<yyyymmdd>-`, the stem of the day's run ids. */
  runIdPrefix: string;
  dayMs: number;
  bad: boolean;
  flakyRate: number;
  /** How much longer runs take than the profile's mean (a creeping suite). */
  slower: number;
  /** The flaky share of the rising branch's runs this day; null without one. */
  branchFlakyRate: number | null;
}

/** The rising branch's flaky share `back` days before today: `from`, then `to` over the last days. */
function branchFlakyRate(rise: ProjectProfile["risingBranch"], back: number): number | null {
  if (!rise) return null;
  return back <= rise.days ? rise.to : rise.from;
}

function isOutage(seed: string, date: string): boolean {
  return createRandom(`${seed}|outage|${date}`).chance(OUTAGE_CHANCE);
}

function generateDay(random: Random, profile: ProjectProfile, day: DayTraits): EmulatorRun[] {
  const weekday = new Date(day.dayMs).getUTCDay();
  const weekend = weekday === 0 || weekday === 6;
  const mean = profile.weekdayRuns * (weekend && !profile.steady ? profile.weekendFactor : 1);
  const count = profile.steady
    ? random.poisson(mean)
    : Math.round(mean * (0.7 + 0.6 * random.next()));
  const offsets = Array.from({ length: count }, () => timeOfDayMs(random)).sort((a, b) => a - b);
  return offsets.map((offset, i) => generateRun(random, profile, day, offset, i));
}

/** Spread over the whole UTC day with a working-hours bump, so zones move runs across days. */
function timeOfDayMs(random: Random): number {
  const hours = random.chance(0.55) ? random.next() * 24 : 12 + random.next() * 7;
  return Math.floor(hours * 3_600_000);
}

function generateRun(
  random: Random,
  profile: ProjectProfile,
  day: DayTraits,
  offsetMs: number,
  index: number,
): EmulatorRun {
  const hour = Math.floor(offsetMs / 3_600_000);
  const nightly = hour < 4 && random.chance(0.7);
  const branch = nightly || random.chance(0.7) ? "main" : random.pick(profile.branches);
  const tags = [profile.primaryTag];
  const smoke = random.chance(0.35);
  if (smoke) tags.push("smoke");
  if (nightly) tags.push("nightly");
  if (random.chance(0.2)) tags.push("regression");

  const planned = smoke ? profile.testsPerRun * 0.4 : profile.testsPerRun;
  const total = clamp(Math.round(planned * (0.9 + 0.2 * random.next())), 50, 400);
  const broken = random.chance(Math.min(0.9, profile.breakChance * (day.bad ? 6 : 1)));
  let failed = broken ? random.poisson(day.bad ? 12 : 2) : 0;
  const timedOut = broken && random.chance(day.bad ? 0.5 : 0.2) ? 1 + random.poisson(0.5) : 0;
  if (broken && failed + timedOut === 0) failed = 1;
  failed = Math.min(failed, total - timedOut);
  const skipped = Math.min(random.poisson(total * profile.skipRate), total - failed - timedOut);
  const passed = total - failed - timedOut - skipped;
  const onRise = day.branchFlakyRate !== null && branch === profile.risingBranch?.branch;
  const flakyRate = onRise ? (day.branchFlakyRate ?? day.flakyRate) : day.flakyRate;
  const flaky = Math.min(random.poisson(total * flakyRate), passed);

  const slowdown = failed + timedOut > 0 ? 1.15 : 1;
  const durationMs = Math.round(
    profile.meanDurationMs *
      (total / profile.testsPerRun) *
      (0.8 + 0.4 * random.next()) *
      slowdown *
      day.slower,
  );
  return {
    id: `${day.runIdPrefix}${String(index + 1).padStart(3, "0")}`,
    startedAt: new Date(day.dayMs + offsetMs).toISOString(),
    branch,
    author: random.pick(profile.authors),
    tags,
    status: failed + timedOut > 0 ? "failed" : "passed",
    durationMs,
    tests: { passed, failed, skipped, flaky, timedOut },
  };
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
