import { performance } from "node:perf_hooks";
import { datesIn } from "../src/periods/calendar-date.js";
import { chartWindow, defaultChartDays } from "../src/periods/chart-window.js";
import { periodsForFire } from "../src/periods/periods-for-fire.js";
import type { Period } from "../src/periods/types.js";
import type { DigestChartData } from "../src/render/charts/digest-charts.js";
import { sumDailySeries } from "../src/report/daily-series.js";
import type { DailyPoint, Report } from "../src/report/types.js";
import { flakyWarningsOn } from "../test/render/charts/chart-fixture.js";
import { figures, manyProjectsReport } from "../test/render/report-fixture.js";

// The charts of a 30-project team's weekly digest: 8 weeks of days per project summed for the
// team, and one image of both rates for the team and for each of its five projects needing
// attention (6 PNGs), drawn as the daemon draws them: by the built package (dist/, `npm run build`
// first), in the chart worker. Prints the time, the CPU time (the whole process's, the
// worker's included) and the memory (the whole process's RSS) of the first digest, which
// starts the worker and loads Vega and resvg in it (once per idle period: the worker ends
// after CHART_WORKER_IDLE_MS without charts), and of a later digest (another team's, as in a
// cycle of digests), which finds it running; then what is left once the worker has ended.
// `npx tsx bench/chart-bench.ts [--json] [--src]`; --src draws from the TypeScript sources, in
// this thread, as the unit tests do. `npm run bench` runs it in a process of its own.

const PROJECTS = 30;
const MB = 1024 * 1024;

/**
 * The weekly digest's periods and chart window, worked out as the daemon works them out
 * before it draws: in the team's zone, with luxon, on Monday 16 November 2026 at 09:00 in
 * Berlin (the week of 9–15 November against the week before, and 8 weeks of days). A process
 * that has never worked in a zone has not yet read the time-zone and locale data built into the
 * node executable; a daemon has, long before its first chart, so the bench's first digest must
 * not be charged for it (docs/performance.md, the charts' eighth stop).
 */
function weeklyDigestPeriods(): { periods: { current: Period; prior: Period }; window: Period } {
  const pair = periodsForFire({
    fireAt: new Date("2026-11-16T08:00:00Z"),
    timezone: "Europe/Berlin",
    kind: "previous_week",
    compareTo: "previous_period",
    weekStartsOn: 1,
  });
  const periods = { current: pair.current, prior: pair.prior };
  return { periods, window: chartWindow(periods, defaultChartDays(pair.kind)) };
}
const { periods: CHART_PERIODS, window: CHART_WINDOW } = weeklyDigestPeriods();

function projectDays(seed: number): DailyPoint[] {
  return datesIn(CHART_WINDOW).map((date, i) => {
    const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
    if (weekday === 0 || weekday === 6) return { date, figures: figures() };
    const tests = 500 + ((seed * 97 + i * 31) % 3000);
    const runs = 5 + ((seed + i) % 20);
    const runsFailed = (seed * 7 + i) % 4;
    return {
      date,
      figures: figures({
        runsPassed: runs - runsFailed,
        runsFailed,
        testsPassed: tests - 20,
        testsFailed: 20,
        testsFlaky: Math.round(tests * (0.005 + ((seed * 13 + i * 7) % 40) / 1000)),
      }),
    };
  });
}

/** A team of PROJECTS projects; teams of other names chart the same days under other titles. */
function teamReport(team: string): Report {
  const named = manyProjectsReport(PROJECTS);
  const base = {
    ...named,
    team: { ...named.team, title: team },
    projects: named.projects.map((p) => ({ ...p, name: `${team}: ${p.name}` })),
  };
  const ok = base.projects.filter((p) => p.status === "ok");
  // Five projects the news names (an alert firing on each), charted after the team.
  const alerts = flakyWarningsOn(ok.slice(0, 5).map((p) => p.projectId));
  return { ...base, periods: { ...base.periods, ...CHART_PERIODS }, alerts };
}

function chartData(report: Report): DigestChartData {
  const projects = new Map(
    report.projects.flatMap((p, i) => (p.status === "ok" ? [[p.projectId, projectDays(i)]] : [])),
  );
  return {
    window: CHART_WINDOW,
    team: sumDailySeries([...projects.values()], CHART_WINDOW),
    projects,
    thresholds: {
      flakyRate: [
        { level: "warn", value: 0.03 },
        { level: "critical", value: 0.05 },
      ],
      runPassRate: [{ level: "warn", value: 0.85 }],
    },
  };
}

type ChartModule = typeof import("../src/render/charts/digest-charts.js");
type PainterModule = typeof import("../src/chart-painter/chart-painter-on-first-use.js");
type Painter = import("../src/chart-painter/chart-worker-client.js").OwnedChartPainter;

const fromSources = process.argv.includes("--src");
const built = (path: string) => `../${fromSources ? "src" : "dist"}/${path}`;

const rss = () => process.memoryUsage().rss;
function cpuMsSince(from: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1000;
}

/** One digest's charts: wall and CPU time, and the peak RSS above the RSS just before. */
async function measure(charts: ChartModule, report: Report, painter: Painter) {
  globalThis.gc?.();
  const before = rss();
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rss());
  }, 5);
  const cpu = process.cpuUsage();
  const started = performance.now();
  const drawn = await charts.renderDigestCharts(report, chartData(report), { painter });
  const ms = performance.now() - started;
  const cpuMs = cpuMsSince(cpu);
  clearInterval(sampler);
  peak = Math.max(peak, rss());
  return { ms, cpuMs, charts: drawn.length, extraRssBytes: peak - before, rssBefore: before };
}

async function main(): Promise<void> {
  // V8 set as `start` sets it for the daemon, its chart worker included.
  const tuning: typeof import("../src/compiler-tuning.js") = await import(
    built("compiler-tuning.js")
  );
  tuning.tuneForDaemon();
  // Two teams' digests, as in a cycle: the later one's titles are its own, so the painter has
  // seen only its labels (dates, percentages) before.
  const report = teamReport("Checkout");
  const otherTeam = teamReport("Payments");
  globalThis.gc?.();
  const rssAtStart = rss();
  const charts: ChartModule = await import(built("render/charts/digest-charts.js"));
  const painters: PainterModule = await import(
    built("chart-painter/chart-painter-on-first-use.js")
  );
  // As the daemon's clients build it: nothing loaded or started before the first chart.
  const painter = painters.chartPainterOnFirstUse();
  const first = await measure(charts, report, painter);
  const later = await measure(charts, otherTeam, painter);
  const peakRss = process.resourceUsage().maxRSS * 1024;
  await painter.close();
  globalThis.gc?.();
  const figures = {
    charts: first.charts,
    firstMs: first.ms,
    firstCpuMs: first.cpuMs,
    ms: later.ms,
    cpuMs: later.cpuMs,
    /** A later digest: the peak RSS above the RSS before it (the worker already running). */
    extraRssBytes: later.extraRssBytes,
    /** The first digest: the peak RSS above a process that has drawn nothing yet. */
    firstExtraRssBytes: Math.max(first.extraRssBytes, peakRss - first.rssBefore),
    /** The first digest's own peak RSS above the RSS before it (sampled every 5 ms). */
    firstOwnExtraRssBytes: first.extraRssBytes,
    /** What the charts hold between digests while the worker runs. */
    heldRssBytes: later.rssBefore - first.rssBefore,
    /** What is left after the worker has ended. */
    leftRssBytes: rss() - first.rssBefore,
    startMs: first.ms - later.ms,
    startCpuMs: first.cpuMs - later.cpuMs,
    rssAtStart,
  };
  if (process.argv.includes("--json")) {
    console.log(JSON.stringify(figures));
    return;
  }
  const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;
  const where = fromSources ? "in this thread (sources)" : "in the chart worker (dist/)";
  console.log(`charts of a ${PROJECTS}-project team: ${figures.charts} PNGs, drawn ${where}`);
  console.log(
    `  later digest    ${later.ms.toFixed(0)} ms (CPU ${later.cpuMs.toFixed(0)} ms), peak RSS +${mb(figures.extraRssBytes)}`,
  );
  console.log(
    `  first digest    ${first.ms.toFixed(0)} ms (CPU ${first.cpuMs.toFixed(0)} ms), peak RSS +${mb(figures.firstExtraRssBytes)}`,
  );
  console.log(
    `  of which start-up, once per idle period: ~${figures.startMs.toFixed(0)} ms (CPU ~${figures.startCpuMs.toFixed(0)} ms): the worker started, Vega and resvg loaded, the spec parsed`,
  );
  console.log(`  held between digests while the worker runs: ${mb(figures.heldRssBytes)}`);
  console.log(`  left once the worker has ended: ${mb(figures.leftRssBytes)}`);
}

await main();
