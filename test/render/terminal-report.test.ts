import { describe, expect, it } from "vitest";
import { renderTerminalReport } from "../../src/render/terminal/terminal-report.js";
import {
  checkoutReport,
  DAY_VS_LAST_WEEK,
  dailySeries,
  LOOKBACK_NOTE,
  manyProjectsReport,
  unavailableDeltas,
} from "./report-fixture.js";

// biome-ignore lint/suspicious/noControlCharactersInRegex: looking for ANSI codes is the point.
const ANSI = /\x1b\[/;
const RED = "\x1b[31m";
const GREEN = "\x1b[32m";
const DIM = "\x1b[2m";

function lineStarting(text: string, start: string): string {
  const line = text.split("\n").find((l) => l.trimStart().startsWith(start));
  if (line === undefined) throw new Error(`no line starting with ${start}`);
  return line;
}

describe("renderTerminalReport", () => {
  const plain = renderTerminalReport(checkoutReport(), { color: false, width: 100 });

  it("names the period and the prior period with their dates", () => {
    expect(plain).toContain("Checkout squad \u00b7 weekly \u00b7 Nov 9 \u2013 15, 2026");
    expect(plain).toContain("Period    Nov 9 \u2013 15, 2026 \u00b7 7 days \u00b7 Europe/Berlin");
    expect(plain).toContain("Compared  vs previous 7 days (Nov 2 \u2013 8, 2026)");
    const day = renderTerminalReport(checkoutReport({ periods: DAY_VS_LAST_WEEK }), {
      color: false,
      width: 100,
    });
    expect(day).toContain("Period    Nov 15, 2026 \u00b7 Europe/Berlin");
    expect(day).toContain("Compared  vs Nov 8, 2026 (same day last week)");
  });

  it("shows the team headline with arrows, pp and %, and marks noise", () => {
    expect(lineStarting(plain, "Run pass rate")).toBe(
      "  Run pass rate            95.1%  \u2248 +0.2 pp (noise)",
    );
    expect(lineStarting(plain, "Flaky rate")).toBe(
      "  Flaky rate                2.0%  \u2191 +1.1 pp",
    );
    expect(lineStarting(plain, "Mean run duration")).toBe(
      "  Mean run duration       6m 52s  \u2248 \u22124% (noise)",
    );
    expect(lineStarting(plain, "Test pass rate")).toBe(
      "  Test pass rate           97.7%  \u2248 \u00b10.0 pp (noise)",
    );
    expect(lineStarting(plain, "Test results")).toContain("36,100");
  });

  it("lists one line per project, worst first, with a sparkline of the daily flaky rate", () => {
    const web = lineStarting(plain, "Web E2E");
    expect(web).toMatch(
      /Web E2E +4\.5% +\u2191 \+3\.3 pp +500 +\u2191 \+79% +100 +\u2191 \+400% +\u2583\u2585\u2587\u2588\u2586\u2587\u2588$/,
    );
    expect(lineStarting(plain, "Mobile iOS")).toMatch(/1\.5% +new +100 +new/);
    expect(lineStarting(plain, "Payments")).toMatch(/2\.0% +n\/a +40 +n\/a/);
    const order = ["Web E2E", "Payments", "Mobile iOS", "*bold*<@U123>", "API contract"].map((n) =>
      plain.indexOf(`  ${n} `),
    );
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it("aligns the project columns", () => {
    const lines = ["Project ", "Web E2E", "Payments", "Mobile iOS", "API contract"].map((s) =>
      lineStarting(plain, s),
    );
    // At 100 columns the news (flaky rate, failed and timed-out tests) and a week of sparkline
    // leave no room for run pass rate: flaky rate is the first percentage.
    const flakyEnds = lines.map((l) => l.indexOf("%"));
    expect(lineStarting(plain, "Project ").indexOf("Flaky ") + "Flaky".length - 1).toBe(
      flakyEnds[1],
    );
    expect(new Set(flakyEnds.slice(1)).size).toBe(1);
  });

  it("opens with the news (alerts, projects not fetched, changes), the rest under What changed, and the prior notes", () => {
    expect(plain.split("\n").slice(0, 4)).toEqual([
      "! Team flaky-rate 2.1% \u2014 above critical 2%",
      "! Web E2E flaky-rate 4.5% \u2014 above warn 3%",
      "! Legacy <suite> (old-proj) could not be fetched \u2014 the team figures leave it out",
      "  and 9 more under What changed",
    ]);
    expect(plain).toContain(
      "What changed (continued)\n! Web E2E: timed-out tests 20 \u2192 100 (+400%, worse)",
    );
    expect(plain).not.toContain("Top movers");
    expect(plain).not.toContain("503");
    expect(plain).toContain(`Note: Payments: ${LOOKBACK_NOTE}`);
    expect(plain).toContain("Totals leave out: Legacy <suite> (unavailable)");
  });

  it("says when the team's prior period is not available, with no deltas", () => {
    const report = checkoutReport();
    report.total = {
      ...report.total,
      prior: null,
      priorNote: LOOKBACK_NOTE,
      deltas: unavailableDeltas(LOOKBACK_NOTE),
    };
    const text = renderTerminalReport(report, { color: false, width: 100 });
    expect(text).toContain(`Note: ${LOOKBACK_NOTE}`);
    expect(lineStarting(text, "Flaky rate")).toBe("  Flaky rate                2.0%  n/a");
  });

  it("has no ANSI codes when colour is off, even for names holding escape sequences", () => {
    const report = checkoutReport();
    report.team = { ...report.team, title: "\x1b[31mred\x1b[0m team" };
    expect(renderTerminalReport(report, { color: false, width: 100 })).not.toMatch(ANSI);
    expect(renderTerminalReport(report, { color: false, width: 100 })).toContain("[31mred[0m team");
  });

  it("colours by direction when colour is on: worse red, better green, noise dim", () => {
    const report = checkoutReport();
    report.total.deltas.runPassRate = {
      kind: "change",
      pp: 1.2,
      significant: true,
      pValue: 0.001,
      large: true,
    };
    const text = renderTerminalReport(report, { color: true, width: 100 });
    expect(lineStarting(text, "Flaky rate")).toContain(`${RED}\u2191 +1.1 pp`);
    expect(lineStarting(text, "Run pass rate")).toContain(`${GREEN}\u2191 +1.2 pp`);
    expect(lineStarting(text, "Test pass rate")).toContain(`${DIM}\u2248 \u00b10.0 pp (noise)`);
    // +4% runs: under 10%, dimmed as noise.
    expect(lineStarting(text, "Runs")).toContain(`${DIM}\u2248 +4%`);
  });

  it("fits 100 columns, even with long names and a month of days", () => {
    const report = manyProjectsReport(30);
    const month = dailySeries(
      "2026-10-01",
      Array.from({ length: 31 }, (_, i) => (i % 5) / 100),
    );
    report.projects = report.projects.map((p) => (p.status === "ok" ? { ...p, daily: month } : p));
    const text = renderTerminalReport(report, { color: false, width: 100 });
    // The name keeps 16 columns; the sparkline keeps the most recent days that fit.
    // Its heading says which days it shows (issue 36 item 6), never "last N days".
    expect(text).toMatch(/Flaky, Oct \d+ \u2013 31/);
    expect(text).toContain("Project 001 wit\u2026");
    for (const line of text.split("\n")) expect([...line].length).toBeLessThanOrEqual(100);
    const wide = renderTerminalReport(report, { color: false, width: 140 });
    expect(wide).toContain("Flaky, Oct 1 \u2013 31");
    expect(wide).toContain("\u2581\u2583\u2585\u2586\u2588".repeat(6));
  });
});
