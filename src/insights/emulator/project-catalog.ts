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
// Indexes 9–11 ("Data pipeline", "Partner portal", "Notifications") break together: their flaky
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
  primaryTag: string;
  branches: readonly string[];
  authors: readonly string[];
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
/** The flaky shares of indexes 9–11, by day before today as SPIKE: all over critical on one day. */
const TOGETHER = [0.008, 0.009, 0.008, 0.01, 0.09, 0.009, 0.008] as const;
const TOGETHER_INDEXES: readonly number[] = [9, 10, 11];
const SILENT_INDEX = 7;
const WOBBLE_INDEX = 8;

const ID_LETTERS = [..."abcdefghijklmnopqrstuvwxyz"];

/**
 * How many projects `insights-reporter emulator` and the demo serve by default: every one
 * config/demo.yaml names, the last three being those that break together (the demo's incident).
 */
export const DEMO_PROJECT_COUNT = Math.max(...TOGETHER_INDEXES) + 1;

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
      // Busy every day, so even a weekend sample is large enough for the alert to judge.
      weekdayRuns: spiking || together ? 40 : weekdayRuns,
      weekendFactor: spiking || together ? 0.6 : weekendFactor,
      stopsMsBeforeToday: index === SILENT_INDEX ? 36 * 3_600_000 : null,
      steady: index === WOBBLE_INDEX,
      testsPerRun: random.int(80, 380),
      breakChance: 0.04 + random.next() * 0.1,
      skipRate: 0.005 + random.next() * 0.03,
      flakyFrom: rising ? 0.005 : flakyBase,
      flakyTo: rising ? 0.065 : flakyBase,
      spike: spiking ? SPIKE : together ? TOGETHER : null,
      meanDurationMs: random.int(2, 20) * 60_000 + random.int(0, 59_999),
      primaryTag: PRIMARY_TAGS[index % PRIMARY_TAGS.length] ?? "e2e",
      branches: FEATURE_BRANCHES.slice(featureStart, featureStart + 3),
      authors: AUTHORS.slice(authorStart, authorStart + 4),
    };
  });
}
