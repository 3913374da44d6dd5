import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import type ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cell, loadWorkbook, records, sheet, value } from "../render/workbook-read.js";
import { unwrapLines } from "../support/unwrap-lines.js";
import { PROJECTS, startTeamFixture, type TeamFixture, ZONE } from "./cli-team-fixture.js";
import { EARLIEST, IDS } from "./e2e-setup.js";
import { countRuns, datesOf, flakyRate, runPassRate, runsIn } from "./raw-figures.js";

/** Output as one line of words: export fits its lines to 80 columns, breaking between words. */
const words = (text: string) => text.replace(/\s+/g, " ");

/**
 * `export`: a workbook for any range the API serves, compared with the equal range before it,
 * checked cell by cell against the emulator's raw runs; and the ranges it must refuse.
 */

const DASHBOARD = "https://dash.example.com/p/{project_id}?range=week";

let f: TeamFixture;
beforeAll(async () => {
  f = await startTeamFixture({ dashboardUrl: DASHBOARD });
});

/** A Summary, Runs or Tests row of a project, found by the dashboard link of its name. */
function rowOf(book: ExcelJS.Workbook, name: string, id: string): Map<string, ExcelJS.Cell> {
  const link = DASHBOARD.replace("{project_id}", id);
  const row = records(sheet(book, name)).find((r) => {
    const v = r.get("Project")?.value;
    return typeof v === "object" && v !== null && "hyperlink" in v && v.hyperlink === link;
  });
  if (!row) throw new Error(`no ${name} row linked to ${link}`);
  return row;
}
afterAll(async () => {
  await f.close();
});

describe("export", () => {
  it("writes a workbook whose Summary and Daily match the raw runs, every day with a real date", async () => {
    const out = join(f.dir, "export.xlsx");
    const range = { start: "2026-11-01", end: "2026-11-14" };
    const prior = { start: "2026-10-18", end: "2026-10-31" };
    const result = await f.cli([
      "export",
      "--team",
      "checkout",
      "--from",
      range.start,
      "--to",
      range.end,
      "--out",
      out,
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(words(result.stdout)).toContain(
      `wrote ${out}: 3 projects, 2026-11-01..2026-11-14 vs 2026-10-18..2026-10-31`,
    );

    const book = await loadWorkbook(await readFile(out));
    const web = PROJECTS[0];
    if (!web) throw new Error("no project");
    const now = countRuns(runsIn(f.runsOf(web.id), range, ZONE, web.filters));
    const before = countRuns(runsIn(f.runsOf(web.id), prior, ZONE, web.filters));
    // Each project's name links to its dashboard, on every sheet of figures.
    const summary = rowOf(book, "Summary", web.id);
    expect(value(summary, "Project")).toEqual({
      text: web.name,
      hyperlink: `https://dash.example.com/p/${web.id}?range=week`,
    });
    expect(value(rowOf(book, "Runs", web.id), "Project ID")).toBe(web.id);
    expect(value(summary, "Runs")).toBe(now.runs);
    expect(value(rowOf(book, "Runs", web.id), "Runs failed")).toBe(now.runsFailed);
    expect(value(rowOf(book, "Tests", web.id), "Tests flaky")).toBe(now.testsFlaky);
    expect(value(summary, "Flaky rate") as number).toBeCloseTo(flakyRate(now) ?? -1, 12);
    expect(value(summary, "Run pass rate (prior)") as number).toBeCloseTo(
      runPassRate(before) ?? -1,
      12,
    );
    // Stored exact: only the number format rounds it to 0.1 pp.
    const pp = ((flakyRate(now) ?? 0) - (flakyRate(before) ?? 0)) * 100;
    expect(Math.round(pp * 10) / 10).not.toBe(pp);
    expect(value(summary, "Flaky rate Δ (pp)") as number).toBeCloseTo(pp, 12);
    expect(cell(summary, "Flaky rate Δ (pp)").numFmt).toBe("[>=0.05]+0.0;[<=-0.05]-0.0;0.0");

    const daily = records(sheet(book, "Daily")).filter((r) => value(r, "Project ID") === web.id);
    expect(daily).toHaveLength(14);
    for (const [i, date] of datesOf(range).entries()) {
      const row = daily[i];
      if (!row) throw new Error(`no Daily row for ${date}`);
      const when = cell(row, "Date").value;
      expect(when).toBeInstanceOf(Date);
      expect((when as Date).toISOString().slice(0, 10)).toBe(date);
      const day = countRuns(
        runsIn(f.runsOf(web.id), { start: date, end: date }, ZONE, web.filters),
      );
      expect([date, value(row, "Runs"), value(row, "Tests flaky")]).toEqual([
        date,
        day.runs,
        day.testsFlaky,
      ]);
    }
  });

  it("covers only the days the API has when --to is in the future, and compares them with as many days before", async () => {
    const out = join(f.dir, "future.xlsx");
    const result = await f.cli([
      "export",
      "--team",
      "checkout",
      "--project",
      IDS.checkoutApi,
      "--from",
      "2026-11-09",
      "--to",
      "2026-11-30",
      "--out",
      out,
    ]);
    expect(result.code, result.stderr).toBe(0);
    // The emulator's today is Nov 18: ten days, against the ten before them.
    expect(words(result.stdout)).toContain("2026-11-09..2026-11-18 vs 2026-10-30..2026-11-08");
    expect(words(result.stdout)).toContain(
      "--to 2026-11-30 is after the last day the API has (2026-11-18)",
    );
    expect(words(result.stdout)).toContain(
      "2026-11-18 is today (Europe/Berlin): its figures are partial until the day is over",
    );
    const book = await loadWorkbook(await readFile(out));
    expect(records(sheet(book, "Daily"))).toHaveLength(10);
    const row = rowOf(book, "Summary", IDS.checkoutApi);
    const served = countRuns(
      runsIn(f.runsOf(IDS.checkoutApi), { start: "2026-11-09", end: "2026-11-18" }, ZONE),
    );
    expect(value(row, "Runs")).toBe(served.runs);
  });

  it("refuses a --from beyond the API's lookback with exit 2, naming the earliest date allowed", async () => {
    const out = join(f.dir, "too-early.xlsx");
    const result = await f.cli([
      "export",
      "--team",
      "checkout",
      "--from",
      "2026-08-01",
      "--to",
      "2026-08-31",
      "--out",
      out,
    ]);
    expect(result.code).toBe(2);
    expect(unwrapLines(result.stderr)).toContain("--from is too early");
    expect(unwrapLines(result.stderr)).toContain(EARLIEST);
  });

  it("refuses a --from after the API's today with exit 2", async () => {
    const result = await f.cli([
      "export",
      "--team",
      "checkout",
      "--from",
      "2026-11-25",
      "--to",
      "2026-11-30",
      "--out",
      join(f.dir, "later.xlsx"),
    ]);
    expect(result.code).toBe(2);
    expect(unwrapLines(result.stderr)).toContain(
      "--from 2026-11-25 is in the future for the insights API",
    );
  });

  it("makes a missing folder for --out", async () => {
    const out = join(f.dir, "new", "folder", "week.xlsx");
    const result = await f.cli(
      ["export", "--team", "checkout", "--from", "2026-11-09"].concat([
        "--to",
        "2026-11-15",
        "--out",
        out,
      ]),
    );
    expect(result.code, result.stderr).toBe(0);
    expect((await stat(out)).size).toBeGreaterThan(0);
  });

  it.each([
    ["a name that is not .xlsx", "week.csv", '--out "week.csv" must name an .xlsx file'],
    // The CLI runs beside its config file: a folder inside a file cannot be made.
    [
      "a folder that cannot be made",
      "reporter.yaml/week.xlsx",
      'cannot write --out "reporter.yaml/week.xlsx" (EEXIST on ',
    ],
  ])("refuses %s with exit 2 before asking the API anything", async (_, out, said) => {
    const before = f.emulator.requestLog.length;
    const result = await f.cli(
      ["export", "--team", "checkout", "--from", "2026-11-09"].concat([
        "--to",
        "2026-11-15",
        "--out",
        out,
      ]),
    );
    expect(result.code).toBe(2);
    expect(unwrapLines(result.stderr)).toContain(said);
    expect(unwrapLines(result.stderr)).not.toMatch(/\bat .*\.js:\d+/); // no stack trace
    expect(f.emulator.requestLog.length).toBe(before);
  });
});
