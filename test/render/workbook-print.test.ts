import type ExcelJS from "exceljs";
import { beforeAll, describe, expect, it } from "vitest";
import { renderWorkbook } from "../../src/render/workbook/workbook.js";
import type { AvailableProject, Report } from "../../src/report/types.js";
import { sampleReport } from "./workbook-fixture.js";
import { cell, headers, loadWorkbook, records, sheet } from "./workbook-read.js";

// The workbook as a reader meets it, read back from the file: nothing clipped in About, sheets
// that print legibly, values stored exact, every font named and sized, durations as times, and
// each project linked to its dashboard.

const FIGURE_SHEETS = ["Summary", "Runs", "Tests"];

/** Lines `text` needs in a cell `width` characters wide, wrapped at spaces. */
function linesNeeded(text: string, width: number): number {
  const room = Math.max(1, width - 1);
  let lines = 0;
  for (const part of text.split("\n")) {
    let line = "";
    lines += 1;
    for (const word of part.split(" ")) {
      const next = line === "" ? word : `${line} ${word}`;
      if (next.length <= room) {
        line = next;
        continue;
      }
      if (line !== "") lines += 1;
      lines += Math.ceil(word.length / room) - 1;
      line = word.slice(-(word.length % room || room));
    }
  }
  return lines;
}

/** The columns a cell shows in: its merged range's, else its own. */
function spanOf(ws: ExcelJS.Worksheet, c: ExcelJS.Cell): number[] {
  const merges: string[] = (ws.model as { merges?: string[] }).merges ?? [];
  for (const range of merges) {
    const [from, to] = range.split(":").map((a) => ws.getCell(a));
    if (!from || !to) continue;
    const [row, first, last] = [Number(from.row), Number(from.col), Number(to.col)];
    if (Number(c.row) === row && Number(c.col) >= first && Number(c.col) <= last) {
      return Array.from({ length: last - first + 1 }, (_, i) => first + i);
    }
  }
  return [Number(c.col)];
}

function textOf(c: ExcelJS.Cell): unknown {
  const v = c.value;
  return v !== null && typeof v === "object" && "text" in v ? v.text : v;
}

describe("the workbook as printed and read", () => {
  const report: Report = sampleReport();
  const available = report.projects.filter((p): p is AvailableProject => p.status === "ok");
  let book: ExcelJS.Workbook;

  beforeAll(async () => {
    book = await loadWorkbook(await renderWorkbook(report));
  });

  it("shows every About text whole: its cell (or merged cells) wide and tall enough", () => {
    const ws = sheet(book, "About");
    let checked = 0;
    ws.eachRow((row) => {
      row.eachCell((c) => {
        if (typeof c.value !== "string" || c.value === "") return;
        const width = spanOf(ws, c).reduce((sum, col) => sum + (ws.getColumn(col).width ?? 9), 0);
        // A 14 pt title takes 14/11 of the room of 11 pt text, bold a tenth more.
        const size = c.font?.size ?? 11;
        const scale = (size / 11) * (c.font?.bold ? 1.1 : 1);
        const needed = linesNeeded(c.value, Math.floor(width / scale));
        const lineHeight = (15 * size) / 11;
        expect(row.height, `row ${row.number} has a height`).toBeDefined();
        expect(
          Math.floor((row.height ?? 15) / lineHeight + 0.01),
          `"${c.value}" in ${width} characters`,
        ).toBeGreaterThanOrEqual(needed);
        checked += 1;
      });
    });
    expect(checked).toBeGreaterThan(20);
    const title = ws.getCell("A1");
    expect(title.value).toBe("Test insights — Checkout squad");
  });

  it("keeps About's filter columns beside the project names, not past a wide column", () => {
    const ws = sheet(book, "About");
    const [project, , branch] = [1, 2, 3].map((n) => ws.getColumn(n));
    const headerRow = ws.getColumn(1).values.indexOf("Project");
    expect(ws.getRow(headerRow).getCell(3).value).toBe("Branch");
    // Branch starts within 60 characters of the sheet's left edge.
    expect((project?.width ?? 0) + (ws.getColumn(2).width ?? 0)).toBeLessThanOrEqual(60);
    expect(branch?.width).toBeLessThanOrEqual(40);
  });

  it("fits a sheet to the page's width only when it prints at 65% or more, 20 columns at most", () => {
    let fitted = 0;
    for (const ws of book.worksheets) {
      const { pageSetup } = ws;
      if (!(pageSetup.fitToPage && pageSetup.fitToWidth === 1)) continue;
      fitted += 1;
      const columns = headers(ws).length;
      expect(columns, ws.name).toBeLessThanOrEqual(20);
      // A column of width w is about 7w + 5 px at 96 dpi; landscape A4 less the side margins.
      let px = 0;
      for (let c = 1; c <= ws.columnCount; c++) px += 7 * (ws.getColumn(c).width ?? 9) + 5;
      const margins = pageSetup.margins ?? { left: 0.7, right: 0.7 };
      const pagePt = (11.69 - margins.left - margins.right) * 72;
      const scale = Math.min(1, pagePt / (px * 0.75));
      expect(scale, `${ws.name} printed at ${(scale * 100).toFixed(0)}%`).toBeGreaterThanOrEqual(
        0.65,
      );
    }
    expect(fitted).toBeGreaterThanOrEqual(4);
  });

  it("stores deltas exact: the number format alone rounds them", () => {
    const rows = records(sheet(book, "Summary"));
    let unrounded = 0;
    for (const project of available) {
      const row = rows.find((r) => textOf(cell(r, "Project")) === project.name);
      if (!row) throw new Error(project.name);
      const { flakyRate, runs, meanRunDurationMs } = project.deltas;
      const expected: [string, number | null][] = [
        ["Flaky rate Δ (pp)", flakyRate.kind === "change" ? flakyRate.pp : null],
        ["Runs Δ (%)", runs.kind === "change" ? runs.pct : null],
        [
          "Mean run duration Δ (%)",
          meanRunDurationMs.kind === "change" ? meanRunDurationMs.pct : null,
        ],
      ];
      for (const [header, want] of expected) {
        const got = cell(row, header).value ?? null;
        expect(got, `${project.name} ${header}`).toBe(want);
        const shown = header.endsWith("(pp)") ? 10 : 100;
        if (want !== null && Math.round(want * shown) / shown !== want) unrounded += 1;
      }
    }
    // The fixture's deltas are not round numbers already, or this test could not fail.
    expect(unrounded).toBeGreaterThan(3);
  });

  it("names and sizes the font of every cell with a value, headers and bold totals included", () => {
    let checked = 0;
    for (const ws of book.worksheets) {
      ws.eachRow((row) =>
        row.eachCell((c) => {
          expect(c.font?.name, `${ws.name}!${c.address}`).toBe("Calibri");
          expect(c.font?.size, `${ws.name}!${c.address}`).toBeGreaterThanOrEqual(10);
          checked += 1;
        }),
      );
    }
    expect(checked).toBeGreaterThan(200);
    expect(sheet(book, "Summary").getCell("A1").font?.bold).toBe(true);
  });

  it("stores mean run durations as times, a fraction of a day shown as [m]:ss", () => {
    const day = 86_400_000;
    const epoch = Date.UTC(1899, 11, 30);
    for (const [name, header] of [
      ["Summary", "Mean run duration"],
      ["Summary", "Mean run duration (prior)"],
      ["Runs", "Mean run duration"],
    ] as const) {
      const rows = records(sheet(book, name));
      for (const project of available) {
        const row = rows.find((r) => textOf(cell(r, "Project")) === project.name);
        if (!row) throw new Error(project.name);
        const figures = header.endsWith("(prior)") ? project.prior : project.current;
        const ms = figures?.meanRunDurationMs ?? null;
        expect(cell(row, header).numFmt, header).toBe("[m]:ss");
        const v = cell(row, header).value ?? null;
        if (ms === null) {
          expect(v).toBeNull();
          continue;
        }
        // exceljs reads a time-formatted number back as a Date counted from 1899-12-30.
        expect(v).toBeInstanceOf(Date);
        expect(((v as Date).getTime() - epoch) / day).toBeCloseTo(ms / day, 7);
      }
    }
    const daily = records(sheet(book, "Daily"));
    expect(daily[0] && cell(daily[0], "Mean run duration").numFmt).toBe("[m]:ss");
  });

  it("links each project's name to its dashboard on Summary, Runs and Tests; the total not", () => {
    for (const name of FIGURE_SHEETS) {
      const rows = records(sheet(book, name));
      for (const project of report.projects) {
        const row = rows.find((r) => textOf(cell(r, "Project")) === project.name);
        if (!row) throw new Error(`${name}: ${project.name}`);
        const c = cell(row, "Project");
        expect(c.value, `${name}: ${project.name}`).toEqual({
          text: project.name,
          hyperlink: `https://insights.example.com/projects/${encodeURIComponent(project.projectId)}?tab=insights&x=<y>`,
        });
        expect(c.font).toMatchObject({ name: "Calibri", size: 11, underline: true });
      }
      expect(rows.at(-1)?.get("Project")?.value).toBe("Total");
    }
  });

  it.each([
    ["no dashboard_url", null],
    ["a dashboard_url for the team, not per project", "https://insights.example.com/team"],
  ])("writes plain names with %s", async (_, dashboardUrl) => {
    const plain = await loadWorkbook(await renderWorkbook({ ...report, dashboardUrl }));
    const names = records(sheet(plain, "Summary")).map((r) => cell(r, "Project").value);
    expect(names).toEqual([...report.projects.map((p) => p.name), "Total"]);
  });
});
