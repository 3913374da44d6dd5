import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFileAtomically } from "../../src/deliver/atomic-file.js";
import { deltaView, toneOf } from "../../src/render/delta-view.js";
import {
  type AlertRow,
  renderWorkbook,
  writeWorkbook,
} from "../../src/render/workbook/workbook.js";
import type { AvailableProject, Figures, Report } from "../../src/report/types.js";
import { HOSTILE_NAME, sampleReport, syntheticReport } from "./workbook-fixture.js";
import { cell, headers, loadWorkbook, records, sheet, value } from "./workbook-read.js";

// The figures people compare, each beside its prior and change (rates: and significance).
const SUMMARY_CONTRACT = [
  "Project",
  "Runs",
  "Runs (prior)",
  "Runs Δ (%)",
  "Run pass rate",
  "Run pass rate (prior)",
  "Run pass rate Δ (pp)",
  "Run pass rate Δ significance",
  "Flaky rate",
  "Flaky rate (prior)",
  "Flaky rate Δ (pp)",
  "Flaky rate Δ significance",
  "Test pass rate",
  "Test pass rate (prior)",
  "Test pass rate Δ (pp)",
  "Test pass rate Δ significance",
  "Mean run duration",
  "Mean run duration (prior)",
  "Mean run duration Δ (%)",
];

const DAILY_CONTRACT = [
  "Date",
  "Project",
  "Project ID",
  "Runs",
  "Runs passed",
  "Runs failed",
  "Run pass rate",
  "Mean run duration",
  "Tests",
  "Tests passed",
  "Tests failed",
  "Tests skipped",
  "Tests flaky",
  "Tests timed out",
  "Test pass rate",
  "Flaky rate",
];

/** Header → how to read the figure from the model, for the columns both sheets share. */
const FIGURE_COLUMNS: [string, (f: Figures) => number | null][] = [
  ["Runs", (f) => f.runs],
  ["Runs passed", (f) => f.runsPassed],
  ["Runs failed", (f) => f.runsFailed],
  ["Run pass rate", (f) => f.runPassRate],
  // A duration is a fraction of a day, shown as [m]:ss.
  [
    "Mean run duration",
    (f) => (f.meanRunDurationMs === null ? null : f.meanRunDurationMs / 86_400_000),
  ],
  ["Tests", (f) => f.tests],
  ["Tests passed", (f) => f.testsPassed],
  ["Tests failed", (f) => f.testsFailed],
  ["Tests skipped", (f) => f.testsSkipped],
  ["Tests flaky", (f) => f.testsFlaky],
  ["Tests timed out", (f) => f.testsTimedOut],
  ["Test pass rate", (f) => f.testPassRate],
  ["Flaky rate", (f) => f.flakyRate],
];

const FORMATS: Record<string, string> = {
  Runs: "#,##0",
  "Run pass rate": "0.0%",
  "Run pass rate (prior)": "0.0%",
  "Run pass rate Δ (pp)": "[>=0.05]+0.0;[<=-0.05]-0.0;0.0",
  "Mean run duration": "[m]:ss",
  "Flaky rate": "0.0%",
  "Flaky rate Δ (pp)": "[>=0.05]+0.0;[<=-0.05]-0.0;0.0",
  "Runs Δ (%)": "[>=0.005]+0%;[<=-0.005]-0%;0%",
};

/** A cell's value as stored: exceljs reads a time-formatted number back as a Date from 1899-12-30. */
function stored(v: unknown): unknown {
  return v instanceof Date && v.getUTCFullYear() < 1900
    ? (v.getTime() - Date.UTC(1899, 11, 30)) / 86_400_000
    : v;
}

/** Every figure of FIGURE_COLUMNS in `row` is the model's; a duration to the millisecond exceljs reads it back to. */
function expectFigures(row: Map<string, ExcelJS.Cell>, figures: Figures): void {
  for (const [header, read] of FIGURE_COLUMNS) {
    const expected = read(figures);
    const got = stored(value(row, header));
    if (header === "Mean run duration" && expected !== null)
      expect(got as number, header).toBeCloseTo(expected, 7);
    else expect(got, header).toBe(expected);
  }
}

/** The text of a cell, a hyperlink's included. */
function textOf(c: ExcelJS.Cell | undefined): unknown {
  const v = c?.value;
  return v !== null && typeof v === "object" && "text" in v ? v.text : v;
}

/** A project's (or the Total's) cells across Summary, Runs and Tests, by header. */
function figureRow(book: ExcelJS.Workbook, project: string): Map<string, ExcelJS.Cell> {
  const merged = new Map<string, ExcelJS.Cell>();
  for (const name of ["Summary", "Runs", "Tests"]) {
    const row = records(sheet(book, name)).find((r) => textOf(r.get("Project")) === project);
    if (!row) throw new Error(`no ${name} row for ${project}`);
    for (const [header, c] of row) if (!merged.has(header)) merged.set(header, c);
  }
  return merged;
}

describe("renderWorkbook", () => {
  const report = sampleReport();
  const available = report.projects.filter((p): p is AvailableProject => p.status === "ok");
  let book: ExcelJS.Workbook;

  beforeAll(async () => {
    book = await loadWorkbook(await renderWorkbook(report));
  });

  it("has About, Summary, Runs, Tests, Daily and, with firing alerts, Alerts, and opens on Summary", () => {
    expect(book.worksheets.map((w) => w.name)).toEqual([
      "About",
      "Summary",
      "Runs",
      "Tests",
      "Daily",
      "Alerts",
    ]);
    expect(book.views[0]?.activeTab).toBe(1);
  });

  it("starts Summary with the contract's headers, in order", () => {
    expect(headers(sheet(book, "Summary"))).toEqual(SUMMARY_CONTRACT);
    expect(headers(sheet(book, "Daily")).slice(0, DAILY_CONTRACT.length)).toEqual(DAILY_CONTRACT);
  });

  it("holds every project's figures, priors and pp deltas as the model has them", () => {
    for (const project of available) {
      const row = figureRow(book, project.name);
      expect(value(row, "Project ID")).toBe(project.projectId);
      expectFigures(row, project.current);
      expect(value(row, "Run pass rate (prior)")).toBe(project.prior?.runPassRate ?? null);
      expect(value(row, "Runs passed (prior)")).toBe(project.prior?.runsPassed ?? null);
      expect(value(row, "Tests skipped (prior)")).toBe(project.prior?.testsSkipped ?? null);
      const runs = project.deltas.runs;
      // Deltas are stored exact; only their formats round them.
      expect(value(row, "Runs Δ (%)")).toBe(runs.kind === "change" ? runs.pct : null);
      expect(value(row, "Flaky rate (prior)")).toBe(project.prior?.flakyRate ?? null);
      const flaky = project.deltas.flakyRate;
      expect(value(row, "Flaky rate Δ (pp)")).toBe(flaky.kind === "change" ? flaky.pp : null);
      const run = project.deltas.runPassRate;
      expect(value(row, "Run pass rate Δ (pp)")).toBe(run.kind === "change" ? run.pp : null);
      expect(value(row, "Status")).toBe("ok");
    }
  });

  it("ends Summary with a bold Total row from the team's figures", () => {
    expect(records(sheet(book, "Summary")).at(-1)?.get("Project")?.value).toBe("Total");
    const total = figureRow(book, "Total");
    expectFigures(total, report.total.current);
    expect(cell(total, "Runs").font?.bold).toBe(true);
    expect(value(total, "Note")).toContain("Legacy <API>");
  });

  it("lists an unavailable project with its reason and empty figures", () => {
    const row = figureRow(book, "Legacy <API>");
    expect(row && value(row, "Project ID")).toBe("legacy1");
    expect(row && value(row, "Status")).toBe("unavailable");
    expect(row && value(row, "Note")).toBe(
      "UPSTREAM: the insights API kept failing (503) after 6 attempts",
    );
    expect(row && value(row, "Runs")).toBeNull();
    expect(row && value(row, "Run pass rate")).toBeNull();
    expect(row && value(row, "Run pass rate Δ significance")).toBe("unavailable");
  });

  it("leaves rates empty, not 0%, where there was no data", () => {
    const quiet = figureRow(book, "Nightly perf");
    expect(quiet && value(quiet, "Runs")).toBe(0);
    expect(quiet && value(quiet, "Run pass rate")).toBeNull();
    expect(quiet && value(quiet, "Flaky rate")).toBeNull();
    expect(quiet && value(quiet, "Run pass rate Δ significance")).toBe("no data");
  });

  it.each(Object.entries(FORMATS))("formats %s as %s", (header, numFmt) => {
    const first = records(sheet(book, "Summary"))[0];
    expect(first && cell(first, header).numFmt).toBe(numFmt);
  });

  it("colours deltas by direction: flaky up red, run pass rate up green, noise plain", () => {
    const colours = { good: "FF1A7F37", bad: "FFCF222E", neutral: undefined };
    const seen = new Set<string>();
    for (const project of available) {
      const row = figureRow(book, project.name);
      for (const [header, figure] of [
        ["Flaky rate Δ (pp)", "flakyRate"],
        ["Run pass rate Δ (pp)", "runPassRate"],
      ] as const) {
        const tone = toneOf(deltaView(figure, project.deltas[figure]));
        seen.add(tone);
        expect(cell(row, header).font?.color?.argb, `${project.name} ${header}`).toBe(
          colours[tone],
        );
      }
    }
    // The fixture has a significant rise of both (Web E2E) and noise (the hostile-named project).
    expect([...seen].sort()).toEqual(["bad", "good", "neutral"]);
  });

  it("keeps a formula-like project name as plain text", () => {
    for (const name of ["Summary", "Daily", "About"]) {
      const ws = sheet(book, name);
      const found: ExcelJS.Cell[] = [];
      ws.eachRow((row) =>
        row.eachCell((c) => {
          if (textOf(c) === HOSTILE_NAME) found.push(c);
        }),
      );
      expect(found.length, name).toBeGreaterThan(0);
      for (const c of found) {
        // Linked to its dashboard in Summary: a hyperlink whose text is the name, not a formula.
        expect([ExcelJS.ValueType.String, ExcelJS.ValueType.Hyperlink]).toContain(c.type);
        expect(c.formula).toBeUndefined();
      }
    }
  });

  it("has a Daily row for every day of every available project, with real UTC dates", () => {
    // The suite runs in Pacific/Kiritimati (vitest.config.ts): a date built at local midnight
    // would read as the day before in UTC.
    expect(new Date(2026, 0, 1).getTimezoneOffset()).toBe(-14 * 60);
    const rows = records(sheet(book, "Daily"));
    const expected = available.flatMap((p) => p.daily.map((d) => ({ p, d })));
    expect(rows).toHaveLength(expected.length);
    expected.forEach(({ p, d }, i) => {
      const row = rows[i];
      if (!row) throw new Error(`row ${i}`);
      const date = value(row, "Date");
      expect(date).toBeInstanceOf(Date);
      expect((date as Date).toISOString()).toBe(`${d.date}T00:00:00.000Z`);
      expect(cell(row, "Date").numFmt).toBe("yyyy-mm-dd");
      expect(value(row, "Project ID")).toBe(p.projectId);
      expectFigures(row, d.figures);
    });
    const empty = rows.find((r) => value(r, "Project ID") === "pdqmxlz" && value(r, "Runs") === 0);
    expect(empty && value(empty, "Run pass rate")).toBeNull();
  });

  it.each(["Summary", "Runs", "Tests", "Daily", "Alerts"])(
    "freezes the bold header row of %s and filters it",
    (name) => {
      const ws = sheet(book, name);
      expect(ws.views[0]).toMatchObject({ state: "frozen", ySplit: 1 });
      expect(ws.getRow(1).getCell(1).font?.bold).toBe(true);
      const lastColumn = ws.getColumn(headers(ws).length).letter;
      // Summary's Total row, the last, stays outside the filter: sorting never mixes it in.
      const totalLast = ["Summary", "Runs", "Tests"].includes(name);
      const lastFiltered = totalLast ? ws.rowCount - 1 : ws.rowCount;
      expect(ws.autoFilter).toBe(`A1:${lastColumn}${lastFiltered}`);
    },
  );

  it.each(["Summary", "Runs", "Tests", "Daily"])(
    "prints %s landscape, fitted to the page width, header on every page",
    (name) => {
      const ws = sheet(book, name);
      expect(ws.pageSetup).toMatchObject({
        orientation: "landscape",
        fitToPage: true,
        fitToWidth: 1,
        fitToHeight: 0,
        printTitlesRow: "1:1",
      });
    },
  );

  it("fits the Project column to the longest name, up to 30 characters", () => {
    const ws = sheet(book, "Summary");
    const longest = Math.max(...report.projects.map((p) => p.name.length));
    expect(longest).toBeGreaterThan(30);
    expect(ws.getColumn(1).width).toBe(30);
    expect(ws.getColumn(2).width).toBeGreaterThanOrEqual("Runs".length);
  });

  it("says in About what the workbook covers", () => {
    const text: string[] = [];
    sheet(book, "About").eachRow((row) => row.eachCell((c) => text.push(String(c.value))));
    const all = text.join("\n");
    for (const part of [
      "Checkout squad",
      "2026-11-09 to 2026-11-15",
      "2026-11-02 to 2026-11-08",
      "Europe/Berlin",
    ]) {
      expect(all).toContain(part);
    }
    expect(all).toContain("2026-11-16 09:00 Europe/Berlin");
    expect(all).toContain("smoke, e2e");
    expect(all).toContain("Flaky rate");
  });

  it("lists firing alerts from the report when no evaluations are given", () => {
    const rows = records(sheet(book, "Alerts"));
    expect(rows).toHaveLength(1);
    const row = rows[0];
    if (!row) return;
    expect(value(row, "State")).toBe("critical");
    expect(value(row, "Project")).toBe("Web E2E");
    expect(value(row, "Value")).toBe(0.052);
    expect(cell(row, "Value").numFmt).toBe("0.0%");
  });
});

describe("renderWorkbook options", () => {
  it("writes no Alerts sheet when no alerts ran", async () => {
    const quiet: Report = { ...sampleReport(), alerts: [] };
    const book = await loadWorkbook(await renderWorkbook(quiet));
    expect(book.worksheets.map((w) => w.name)).toEqual([
      "About",
      "Summary",
      "Runs",
      "Tests",
      "Daily",
    ]);
  });

  it("writes the alert evaluations it is given, team alerts without a project id", async () => {
    const alerts: AlertRow[] = [
      {
        alert: "flaky-rate",
        state: "ok",
        projectId: null,
        project: "Checkout squad",
        value: 0.021,
        threshold: null,
        tests: 27_105,
        note: "resolved",
      },
      {
        alert: "=cmd|' /C calc'!A0",
        state: "no verdict",
        projectId: "perf000",
        project: "Nightly perf",
        value: null,
        threshold: 0.03,
        tests: 0,
        note: "below min_tests (0 < 200)",
      },
    ];
    const book = await loadWorkbook(
      await renderWorkbook({ ...sampleReport(), alerts: [] }, { alerts }),
    );
    const rows = records(sheet(book, "Alerts"));
    expect(rows.map((r) => value(r, "Alert"))).toEqual(["flaky-rate", "=cmd|' /C calc'!A0"]);
    expect(rows.map((r) => value(r, "Project ID"))).toEqual([null, "perf000"]);
    expect(rows.map((r) => value(r, "Value"))).toEqual([0.021, null]);
    expect(rows[1] && cell(rows[1], "Alert").type).toBe(ExcelJS.ValueType.String);
  });

  it("labels the time it is given as the generation time", async () => {
    const book = await loadWorkbook(
      await renderWorkbook(sampleReport(), { generatedAt: "2026-12-01T12:30:00Z" }),
    );
    const text: string[] = [];
    sheet(book, "About").eachRow((row) => row.eachCell((c) => text.push(String(c.value))));
    expect(text).toContain("2026-12-01 13:30 Europe/Berlin (2026-12-01 12:30 UTC)");
    expect(book.created.toISOString()).toBe("2026-12-01T12:30:00.000Z");
  });
});

describe("a workbook written to a file atomically", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "workbook-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("streams a large report to a file that reads back with every day of every project", async () => {
    const big = syntheticReport(40, 90, 7);
    const path = join(dir, "big.xlsx");
    await writeFileAtomically(path, (stream) => writeWorkbook(big, stream));
    expect(await readdir(dir)).toEqual(["big.xlsx"]);
    const book = await loadWorkbook(await readFile(path));
    const daily = records(sheet(book, "Daily"));
    expect(daily).toHaveLength(40 * 90);
    const last = big.projects.at(-1) as AvailableProject;
    const lastRow = daily.at(-1);
    expect(lastRow && value(lastRow, "Project ID")).toBe(last.projectId);
    expect(lastRow && (value(lastRow, "Date") as Date).toISOString().slice(0, 10)).toBe(
      big.periods.current.end,
    );
    expect(lastRow && value(lastRow, "Tests flaky")).toBe(last.daily.at(-1)?.figures.testsFlaky);
    expect(records(sheet(book, "Summary"))).toHaveLength(41);
  });

  it("rejects a path in a missing directory and leaves no partial file", async () => {
    const missing = join(dir, "nope", "out.xlsx");
    await expect(
      writeFileAtomically(missing, (stream) => writeWorkbook(sampleReport(), stream)),
    ).rejects.toMatchObject({
      code: "ENOENT",
    });
    await expect(readdir(dir)).resolves.not.toContain("nope");
  });
});
