import { performance } from "node:perf_hooks";
import { datesIn } from "../src/periods/calendar-date.js";
import type { DigestChartData } from "../src/render/charts/digest-charts.js";
import { sumDailySeries } from "../src/report/daily-series.js";
import type { DailyPoint, Report } from "../src/report/types.js";
import { CHART_PERIODS, CHART_WINDOW } from "../test/render/charts/chart-fixture.js";
import { figures, manyProjectsReport } from "../test/render/report-fixture.js";

// The charts of a 30-project team's weekly digest: 8 weeks of days per project summed for the
// team, and the team's two charts plus two for each of its five projects needing attention
// (12 PNGs). Prints the time, the CPU time and the memory the drawing adds, for the first
// digest of a process (the spec compiled and the code warmed) and for a later one, and apart
// from them what loading the chart libraries costs (once per process: the daemon loads them
// at its first digest with charts).
// `npx tsx bench/chart-bench.ts [--json]`; `npm run bench` runs it in a process of its own.

const PROJECTS = 30;
const MB = 1024 * 1024;

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

function teamReport(): Report {
  const base = manyProjectsReport(PROJECTS);
  const ok = base.projects.filter((p) => p.status === "ok");
  // Five projects the news names (an alert firing on each), charted after the team.
  const alerts = ok.slice(0, 5).map((p) => ({
    alert: "flaky-rate",
    severity: "warn" as const,
    value: 0.05,
    threshold: 0.03,
    projectId: p.projectId,
    metricName: "flaky rate",
  }));
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

type Render = typeof import("../src/render/charts/digest-charts.js").renderDigestCharts;

async function measure(renderDigestCharts: Render, report: Report) {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const charts = await renderDigestCharts(report, chartData(report));
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { ms, cpuMs: (used.user + used.system) / 1000, charts: charts.length };
}

async function main(): Promise<void> {
  const report = teamReport();
  globalThis.gc?.();
  const rssAtStart = process.memoryUsage().rss;
  const loadCpu = process.cpuUsage();
  const { renderDigestCharts } = await import("../src/render/charts/digest-charts.js");
  const loadUsed = process.cpuUsage(loadCpu);
  const rssBefore = process.memoryUsage().rss;
  let peakRss = rssBefore;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 10);
  const first = await measure(renderDigestCharts, report);
  const later = await measure(renderDigestCharts, report);
  clearInterval(sampler);
  peakRss = Math.max(peakRss, process.resourceUsage().maxRSS * 1024);
  const figures = {
    charts: first.charts,
    firstMs: first.ms,
    firstCpuMs: first.cpuMs,
    ms: later.ms,
    cpuMs: later.cpuMs,
    extraRssBytes: peakRss - rssBefore,
    loadCpuMs: (loadUsed.user + loadUsed.system) / 1000,
    loadRssBytes: rssBefore - rssAtStart,
  };
  if (process.argv.includes("--json")) {
    console.log(JSON.stringify(figures));
    return;
  }
  console.log(`charts of a ${PROJECTS}-project team: ${figures.charts} PNGs`);
  console.log(`  first digest    ${first.ms.toFixed(0)} ms (CPU ${first.cpuMs.toFixed(0)} ms)`);
  console.log(`  later digest    ${later.ms.toFixed(0)} ms (CPU ${later.cpuMs.toFixed(0)} ms)`);
  console.log(`  memory added    ${(figures.extraRssBytes / MB).toFixed(1)} MB peak RSS`);
  console.log(
    `  libraries       CPU ${figures.loadCpuMs.toFixed(0)} ms and ${(figures.loadRssBytes / MB).toFixed(1)} MB RSS to load, once per process`,
  );
}

await main();
