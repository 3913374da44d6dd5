import type { PeriodPair } from "../../src/periods/types.js";
import type {
  AmountDelta,
  AmountFigure,
  AvailableProject,
  DailyPoint,
  Deltas,
  Figures,
  RateDelta,
  RateFigure,
  Report,
} from "../../src/report/types.js";
import { type Counts, figures, unavailable } from "./report-fixture.js";

export { unavailable };

/**
 * Report fixtures for the workbook and email tests, built from daily counts (independently of
 * `src/report/`, deltas included): a small realistic report with hostile names, and a large
 * synthetic one for streaming and the benchmark. Figures come from report-fixture.ts.
 */

/** Summed counts; the mean duration weighted by runs. */
export function sum(list: readonly Figures[]): Figures {
  const total = (pick: (f: Figures) => number) => list.reduce((s, f) => s + pick(f), 0);
  const timed = list.filter((f) => f.meanRunDurationMs !== null);
  const weight = timed.reduce((s, f) => s + f.runs, 0);
  return figures({
    runsPassed: total((f) => f.runsPassed),
    runsFailed: total((f) => f.runsFailed),
    meanRunDurationMs:
      weight > 0
        ? timed.reduce((s, f) => s + (f.meanRunDurationMs ?? 0) * f.runs, 0) / weight
        : null,
    testsPassed: total((f) => f.testsPassed),
    testsFailed: total((f) => f.testsFailed),
    testsSkipped: total((f) => f.testsSkipped),
    testsFlaky: total((f) => f.testsFlaky),
    testsTimedOut: total((f) => f.testsTimedOut),
  });
}

const RATE_BASE: Record<RateFigure, (f: Figures) => [number, number]> = {
  runPassRate: (f) => [f.runsPassed, f.runs],
  testPassRate: (f) => [f.testsPassed, f.tests],
  flakyRate: (f) => [f.testsFlaky, f.tests],
};

function rateDelta(
  figure: RateFigure,
  current: Figures,
  prior: Figures | null,
  note: string | null,
): RateDelta {
  if (prior === null) return { kind: "unavailable", reason: note ?? "prior period not available" };
  const [x1, n1] = RATE_BASE[figure](current);
  const [x2, n2] = RATE_BASE[figure](prior);
  if (n1 === 0) return { kind: "none" };
  if (n2 === 0) return { kind: "new" };
  const p1 = x1 / n1;
  const p2 = x2 / n2;
  const pooled = (x1 + x2) / (n1 + n2);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2));
  const z = se === 0 ? 0 : Math.abs(p1 - p2) / se;
  const pValue = Math.min(1, 2 * (1 - normalCdf(z)));
  const pp = (p1 - p2) * 100;
  return { kind: "change", pp, significant: pValue < 0.05, pValue, large: Math.abs(pp) >= 0.5 };
}

function amountDelta(
  figure: AmountFigure,
  current: Figures,
  prior: Figures | null,
  note: string | null,
): AmountDelta {
  if (prior === null) return { kind: "unavailable", reason: note ?? "prior period not available" };
  const now = current[figure];
  const before = prior[figure];
  if (now === null) return { kind: "none" };
  if (before === null) return { kind: "new" };
  const pct = before === 0 ? null : (now - before) / before;
  const large = pct === null ? now !== before : Math.abs(pct) >= 0.1;
  return { kind: "change", diff: now - before, pct, significant: true, large };
}

/** Every delta of current against prior, as the report model defines them. */
export function deltas(
  current: Figures,
  prior: Figures | null,
  note: string | null = null,
): Deltas {
  return {
    runPassRate: rateDelta("runPassRate", current, prior, note),
    testPassRate: rateDelta("testPassRate", current, prior, note),
    flakyRate: rateDelta("flakyRate", current, prior, note),
    runs: amountDelta("runs", current, prior, note),
    meanRunDurationMs: amountDelta("meanRunDurationMs", current, prior, note),
    tests: amountDelta("tests", current, prior, note),
    testsFailed: amountDelta("testsFailed", current, prior, note),
    testsTimedOut: amountDelta("testsTimedOut", current, prior, note),
    testsFlaky: amountDelta("testsFlaky", current, prior, note),
  };
}

function normalCdf(z: number): number {
  // Abramowitz–Stegun 7.1.26; plenty for a fixture.
  const t = 1 / (1 + 0.3275911 * (z / Math.SQRT2));
  const poly =
    t *
    (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  return 0.5 * (1 + (1 - poly * Math.exp(-(z * z) / 2)));
}

/** ISO dates from `start`, `days` of them. */
export function datesFrom(start: string, days: number): string[] {
  const first = Date.parse(`${start}T00:00:00Z`);
  return Array.from({ length: days }, (_, i) =>
    new Date(first + i * 86_400_000).toISOString().slice(0, 10),
  );
}

/** An available project whose period figures are the sum of its days, its deltas computed. */
function projectOfDays(
  id: string,
  name: string,
  daily: DailyPoint[],
  prior: Figures | null,
  options: { priorNote?: string; branch?: string; tags?: string[] } = {},
): AvailableProject {
  const current = sum(daily.map((d) => d.figures));
  const priorNote = options.priorNote ?? null;
  return {
    status: "ok",
    missingDays: { current: [], prior: [] },
    silent: false,
    projectId: id,
    name,
    filters: { branch: options.branch ?? null, author: null, tags: options.tags ?? [] },
    current,
    prior,
    priorNote,
    deltas: deltas(current, prior, priorNote),
    daily,
  };
}

/** A report over the given projects, with the total and its deltas from summed counts. */
export function report(
  periods: PeriodPair,
  projects: Report["projects"],
  extra: Partial<Report> = {},
): Report {
  const ok = projects.filter((p): p is AvailableProject => p.status === "ok");
  const current = sum(ok.map((p) => p.current));
  const priors = ok.map((p) => p.prior).filter((p): p is Figures => p !== null);
  const prior = priors.length > 0 ? sum(priors) : null;
  const missing = ok.filter((p) => p.prior === null).map((p) => p.name);
  const dates = ok[0]?.daily.map((d) => d.date) ?? [];
  return {
    team: { name: "checkout", title: "Checkout squad", timezone: "Europe/Berlin" },
    digest: "weekly",
    missingDaysNote: null,
    periods,
    generatedAt: "2026-11-16T08:00:00.000Z",
    projects,
    total: {
      current,
      prior,
      priorNote: missing.length > 0 ? `prior period not available for ${missing.join(", ")}` : null,
      deltas: deltas(current, prior),
      daily: dates.map((date, i) => ({
        date,
        figures: sum(ok.map((p) => p.daily[i]?.figures ?? figures())),
      })),
      excluded: projects.filter((p) => p.status === "unavailable").map((p) => p.name),
      silent: [],
    },
    alerts: [],
    dashboardUrl: null,
    ...extra,
  };
}

export const WEEK: PeriodPair = {
  kind: "previous_week",
  compareTo: "previous_period",
  current: { start: "2026-11-09", end: "2026-11-15" },
  prior: { start: "2026-11-02", end: "2026-11-08" },
};

export const HOSTILE_NAME = '=HYPERLINK("http://x","y")';
export const HTML_NAME = 'Mobile <iOS> & "Android" <script>alert(1)</script>';

/** A week of a team with the awkward cases: a formula-like name, HTML in a name, no prior, no data, unavailable. */
export function sampleReport(): Report {
  const dates = datesFrom(WEEK.current.start, 7);
  const day = (i: number, c: Partial<Counts>) => ({ date: dates[i] ?? "", figures: figures(c) });
  const web = projectOfDays(
    "pdqmxlz",
    "Web E2E",
    dates.map((_, i) =>
      i === 5
        ? day(i, {}) // a Saturday without runs: zero counts, empty rates
        : day(i, {
            runsPassed: 40 + i,
            runsFailed: 2,
            meanRunDurationMs: 724_000 + i * 1000,
            testsPassed: 4000,
            testsFailed: 30,
            testsSkipped: 12,
            testsFlaky: 160 + i * 10,
            testsTimedOut: 3,
          }),
    ),
    figures({
      runsPassed: 220,
      runsFailed: 40,
      meanRunDurationMs: 700_000,
      testsPassed: 24_000,
      testsFailed: 200,
      testsSkipped: 70,
      testsFlaky: 480,
      testsTimedOut: 20,
    }),
    { branch: "main", tags: ["smoke", "e2e"] },
  );
  const hostile = projectOfDays(
    "hyp4x1k",
    HOSTILE_NAME,
    dates.map((_, i) =>
      day(i, {
        runsPassed: 10,
        runsFailed: 1,
        meanRunDurationMs: 45_000,
        testsPassed: 100,
        testsFlaky: 2,
        testsFailed: 1,
      }),
    ),
    figures({
      runsPassed: 69,
      runsFailed: 8,
      meanRunDurationMs: 46_000,
      testsPassed: 700,
      testsFlaky: 15,
      testsFailed: 9,
    }),
  );
  const mobile = projectOfDays(
    "mob77aa",
    HTML_NAME,
    dates.map((_, i) =>
      day(i, {
        runsPassed: 5,
        runsFailed: i % 2,
        meanRunDurationMs: 3_720_000,
        testsPassed: 300,
        testsFailed: 4,
        testsFlaky: 9,
      }),
    ),
    null,
    { priorNote: "prior period not available: insights go back to 2026-08-25" },
  );
  const quiet = projectOfDays(
    "perf000",
    "Nightly perf",
    dates.map((_, i) => day(i, {})),
    figures({}),
  );
  const legacy = unavailable(
    "legacy1",
    "Legacy <API>",
    "the insights API kept failing (503) after 6 attempts",
  );
  return report(WEEK, [web, hostile, mobile, quiet, legacy], {
    alerts: [
      {
        alert: "flaky-rate",
        severity: "critical",
        value: 0.052,
        threshold: 0.05,
        projectId: "pdqmxlz",
      },
    ],
    dashboardUrl: "https://insights.example.com/projects/{project_id}?tab=insights&x=<y>",
  });
}

/** `projects` × `days` of seeded random data, for streaming tests and the benchmark. */
export function syntheticReport(projects: number, days: number, seed = 1): Report {
  const random = mulberry32(seed);
  const int = (max: number) => Math.floor(random() * max);
  const start = "2026-08-18";
  const dates = datesFrom(start, days);
  const periods: PeriodPair = {
    kind: "last_28_days",
    compareTo: "previous_period",
    current: { start, end: dates[dates.length - 1] ?? start },
    prior: { start: "2026-05-20", end: "2026-08-17" },
  };
  const list = Array.from({ length: projects }, (_, p) => {
    const daily = dates.map((date) => {
      if (random() < 0.2) return { date, figures: figures() };
      const tests = 200 + int(3000);
      return {
        date,
        figures: figures({
          runsPassed: 1 + int(60),
          runsFailed: int(6),
          meanRunDurationMs: 30_000 + int(1_800_000),
          testsPassed: tests,
          testsFailed: int(40),
          testsSkipped: int(30),
          testsFlaky: int(Math.ceil(tests * 0.05)),
          testsTimedOut: int(5),
        }),
      };
    });
    const prior = sum(daily.map((d) => d.figures));
    return projectOfDays(
      `p${p.toString(36).padStart(6, "0")}`,
      `Project ${p} — suite ${int(1000)}`,
      daily,
      prior,
    );
  });
  return report(periods, list, { digest: "export" });
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
