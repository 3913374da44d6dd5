import { createRandom } from "./seeded-random.js";

// Who the synthetic projects are: ids, names and the traits their runs are generated from.
// Cheap to build for any count (no runs here), so a 500-project emulator starts at once.
//
// Roles by position: index 1 is the project whose flaky rate rises over the 100 days
// (about 0.5% → 6.5%); index 5 ("Legacy admin (archived)") has no runs at all (with fewer than
// 6 projects, the last one of at least 3 is the empty one). Index 4's name carries an `&`.
// Index 6 ("Design system", with 7 projects or more) has a flaky spike over the last days
// that falls back, so an alert fires, escalates and resolves in the demo.
// Index 7 ("Android app") stops: no runs from noon UTC two days before "today", so every
// zone's yesterday is empty and the day before is not — a silent project. Index 8 ("iOS app")
// runs a Poisson count around a steady mean, every day alike: its count wobbles by chance.
// Index 9 ("Data pipeline", with 10 projects or more) keeps a steady 0.8% flaky rate and
// spikes to 2.4% over the last 2 days: under a fixed 3% threshold, 1.6 pp above its normal.
// Index 10 ("Partner portal", with 11 or more) runs 5% slower each day over the last 10 days.
// Index 11 ("Notifications") runs on main, release-2.3 and a feature branch, authors ci-bot,
// Oliver Smith and two more; its flaky rate steps up over the last 7 days on release-2.3 alone
// (1% → 8%), while main stays calm: the demo's split by branch shows where the rise sits.
// Indexes 12–14 ("Web E2E 2", "Checkout API 2", "Mobile smoke 2") break together: their flaky
// rate jumps three days before today and is calm again the next day — the demo's incident.

/** How the runs of one project are generated. */
export interface ProjectProfile {
  id: string;
  name: string;
  empty: boolean;
  /** Runs stop at this many ms before "today" (UTC midnight); null: they never stop. */
  stopsMsBeforeToday: number | null;
  /** Runs per day are Poisson around `weekdayRuns`, weekends alike: chance alone moves them. */
  steady: boolean;
  /** Mean runs on a weekday (weekends get `weekendFactor` of it). */
  weekdayRuns: number;
  weekendFactor: number;
  /** Mean tests per full run (50–400); smoke runs carry fewer. */
  testsPerRun: number;
  /** Chance a run is broken on an ordinary day. */
  breakChance: number;
  skipRate: number;
  /** Flaky share of test results at the start and at the end of the 100 days. */
  flakyFrom: number;
  flakyTo: number;
  /** Flaky shares of the last days before today, oldest first, overriding the trend; null for none. */
  spike: readonly number[] | null;
  meanDurationMs: number;
  /** From this many days before today the runs get slower, each day by `creepPerDay` more. */
  creep: { fromDaysBack: number; perDay: number } | null;
  primaryTag: string;
  branches: readonly string[];
  authors: readonly string[];
  /** A branch whose flaky share rises alone over the last days; null for none. */
  risingBranch: RisingBranch | null;
}

/** A flaky rise on one branch: its runs' flaky share is `from`, and `to` over the last `days` days. */
export interface RisingBranch {
  branch: string;
  from: number;
  to: number;
  days: number;
}

const NAMES = [
  "Web E2E",
  "Checkout API",
  "Mobile smoke",
  "Search service",
  "Billing & Invoices",
  "Legacy admin (archived)",
  "Design system",
  "Android app",
  "iOS app",
  "Data pipeline",
  "Partner portal",
  "Notifications",
];
const PRIMARY_TAGS = ["e2e", "api", "mobile", "api", "e2e", "e2e"];
const FEATURE_BRANCHES = [
  "feature/checkout-v2",
  "feature/new-search",
  "fix/login-timeout",
  "renovate/luxon-3.x",
  "release/next",
  "feature/dark-mode",
  "fix/flaky-cart-test",
];
const AUTHORS = [
  "ana.silva",
  "ben.okafor",
  "chloe.martin",
  "dev.patel",
  "eva.novak",
  "farid.haddad",
  "grace.kim",
  "hugo.berg",
];
/**
 * The spike of index 6, by day before today (7 days back … yesterday): calm, over warn (3%),
 * over critical (5%), easing between them, then back under clear (2.5%).
 */
const SPIKE = [0.008, 0.01, 0.042, 0.075, 0.04, 0.009, 0.008] as const;
const SPIKE_INDEX = 6;
/** The flaky shares of indexes 12–14, by day before today as SPIKE: all over critical on one day. */
const TOGETHER = [0.008, 0.009, 0.008, 0.01, 0.09, 0.009, 0.008] as const;
const TOGETHER_INDEXES: readonly number[] = [12, 13, 14];
const SILENT_INDEX = 7;
const WOBBLE_INDEX = 8;
/** Index 9's flaky rate: steady, then a spike under a fixed 3% over the last 2 days (a demo run before 09:00 still sees one). */
const NORMAL_INDEX = 9;
const NORMAL_FLAKY = 0.008;
const NORMAL_SPIKE = [0.024, 0.024] as const;
/** Index 10's runs get 5% slower each day over the last 10 days. */
const CREEP_INDEX = 10;
const CREEP = { fromDaysBack: 10, perDay: 0.05 } as const;
const SLICED_INDEX = 11;
// release-2.3 twice: it gets two thirds of the runs off main (a fifth of all), so its rise shows.
const SLICED_BRANCHES = ["release-2.3", "feature/search-v2", "release-2.3"] as const;
const SLICED_AUTHORS = ["ci-bot", "Oliver Smith", "ana.silva", "ben.okafor"] as const;
const RISING_BRANCH: RisingBranch = { branch: "release-2.3", from: 0.01, to: 0.08, days: 7 };

const ID_LETTERS = [..."abcdefghijklmnopqrstuvwxyz"];

/**
 * How many projects `insights-reporter emulator` and the demo serve by default: every one
 * config/demo.yaml names: the tenth and eleventh hold the spike under a fixed threshold and
 * the slowing runs, the twelfth the flaky rise the data team's attribution finds on one branch,
 * and the last three break together (the demo's incident).
 */
export const DEMO_PROJECT_COUNT = Math.max(SLICED_INDEX, ...TOGETHER_INDEXES) + 1;

/**
 * The project ids for a seed and count, without starting a server.
 * For the default seed "demo" and 6 projects they are:
 * dlucmsz, azenvfq, mojrmve, moqvofb, ielbwnf, wvecaab
 * (Web E2E, Checkout API, Mobile smoke, Search service, Billing & Invoices, Legacy admin (archived)).
 */
export function emulatorProjectIds(seed: string | number = "demo", count = 6): string[] {
  const random = createRandom(`${seed}|project-ids`);
  const ids: string[] = [];
  const seen = new Set<string>();
  while (ids.length < count) {
    let id = "";
    for (let i = 0; i < 7; i++) id += random.pick(ID_LETTERS);
    if (seen.has(id)) continue;
    seen.add(id);
    ids.push(id);
  }
  return ids;
}

/** The display name of the project at `index` (names repeat with a number past the list). */
export function emulatorProjectName(index: number): string {
  const base = NAMES[index % NAMES.length] ?? "Project";
  const round = Math.floor(index / NAMES.length);
  return round === 0 ? base : `${base} ${round + 1}`;
}

function emptyIndex(count: number): number {
  if (count >= 6) return 5;
  return count >= 3 ? count - 1 : -1;
}

/** The profiles of `count` projects for a seed: deterministic, and independent of "today". */
export function buildProjectProfiles(seed: string, count: number): ProjectProfile[] {
  return emulatorProjectIds(seed, count).map((id, index) => {
    const random = createRandom(`${seed}|profile|${id}`);
    const flakyBase = 0.004 + random.next() * 0.01;
    const rising = index === 1;
    const spiking = index === SPIKE_INDEX;
    const normal = index === NORMAL_INDEX;
    const creeping = index === CREEP_INDEX;
    // Busy every day, so even a weekend sample is large enough for an alert to judge.
    const busy = spiking || normal || creeping;
    const sliced = index === SLICED_INDEX;
    const together = TOGETHER_INDEXES.includes(index);
    const featureStart = random.int(0, FEATURE_BRANCHES.length - 3);
    const authorStart = random.int(0, AUTHORS.length - 4);
    // Drawn for every project in the order they always were, so no other data changes.
    const weekdayRuns = random.int(5, 40);
    const weekendFactor = 0.1 + random.next() * 0.2;
    return {
      id,
      name: emulatorProjectName(index),
      empty: index === emptyIndex(count),
      weekdayRuns: busy || together ? 40 : weekdayRuns,
      weekendFactor: busy || together ? 0.6 : weekendFactor,
      stopsMsBeforeToday: index === SILENT_INDEX ? 36 * 3_600_000 : null,
      steady: index === WOBBLE_INDEX,
      testsPerRun: random.int(80, 380),
      breakChance: 0.04 + random.next() * 0.1,
      skipRate: 0.005 + random.next() * 0.03,
      flakyFrom: rising ? 0.005 : normal ? NORMAL_FLAKY : sliced ? 0.01 : flakyBase,
      flakyTo: rising ? 0.065 : normal ? NORMAL_FLAKY : sliced ? 0.01 : flakyBase,
      spike: spiking ? SPIKE : normal ? NORMAL_SPIKE : together ? TOGETHER : null,
      meanDurationMs: random.int(2, 20) * 60_000 + random.int(0, 59_999),
      creep: creeping ? CREEP : null,
      primaryTag: PRIMARY_TAGS[index % PRIMARY_TAGS.length] ?? "e2e",
      // The same number of each as every project, so its draws stay those it always had.
      branches: sliced ? SLICED_BRANCHES : FEATURE_BRANCHES.slice(featureStart, featureStart + 3),
      authors: sliced ? SLICED_AUTHORS : AUTHORS.slice(authorStart, authorStart + 4),
      risingBranch: sliced ? RISING_BRANCH : null,
    };
  });
}
