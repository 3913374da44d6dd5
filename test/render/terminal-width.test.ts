import { describe, expect, it } from "vitest";
import { terminalWidth } from "../../src/commands/terminal-width.js";
import { renderTerminalReport } from "../../src/render/terminal/terminal-report.js";
import { checkoutReport, dailySeries, manyProjectsReport, project } from "./report-fixture.js";
import { showInTerminal } from "./xterm-screen.js";

// The width is measured here by a real terminal emulator, not by the code's own measure: a
// renderer that counted "日本語" as 3 columns would pass a test that counted the same way.

/** Writes `text` into an 80-column xterm and returns each row it shows, and which rows wrapped. */
const showIn80Columns = (text: string) => showInTerminal(text, 80);

describe("preview at 80 columns, measured by a terminal", () => {
  it("wraps no line, with a month of days and long names", async () => {
    const report = manyProjectsReport(12);
    const month = dailySeries(
      "2026-10-01",
      Array.from({ length: 31 }, (_, i) => (i % 5) / 100),
    );
    report.projects = report.projects.map((p) => (p.status === "ok" ? { ...p, daily: month } : p));
    const text = renderTerminalReport(report, { color: true, width: 80 });
    const { wrapped } = await showIn80Columns(text);
    expect(wrapped).toEqual([]);
  });

  it("counts CJK characters and emoji as two columns: columns stay aligned and nothing wraps", async () => {
    const report = checkoutReport();
    const wide = project({
      id: "cjk0001",
      name: "決済フロー結合テスト 🚀 モバイル版アプリケーション",
      current: {
        runsPassed: 90,
        runsFailed: 10,
        testsPassed: 900,
        testsFailed: 10,
        testsFlaky: 30,
      },
      prior: { runsPassed: 95, runsFailed: 5, testsPassed: 900, testsFailed: 5, testsFlaky: 20 },
    });
    report.projects = [wide, ...report.projects];
    report.team = {
      ...report.team,
      title: "品質保証チーム・決済とモバイルの毎週のテスト結果まとめ 🚀🚀",
    };
    const text = renderTerminalReport(report, { color: false, width: 80 });
    const { rows, wrapped } = await showIn80Columns(text);
    expect(wrapped).toEqual([]);
    const head = rows.find((r) => r.join("").trimStart().startsWith("Project ")) ?? [];
    // Its table row, not the news lines that name it.
    const cjk = rows.find((r) => r.join("").startsWith("  決済フロー")) ?? [];
    expect(cjk.join("")).toContain("\u2026");
    // The CJK row's run pass rate ends where the heading's "Run pass" ends, as a terminal shows it.
    const headText = head.join("");
    const label = headText.trim().split(/ {2,}/)[1] ?? "";
    const end = headText.indexOf(label) + label.length; // the heading is all narrow
    expect(label).toBe("Run pass");
    expect(cjk.slice(end - 5, end).join("")).toBe("90.0%");
  });
});

describe("preview's project names", () => {
  it("take a column as wide as the longest name, not all the room a wide terminal has", async () => {
    const report = checkoutReport();
    const longest = Math.max(
      ...report.projects
        .filter((p) => p.status === "ok")
        .map((p) => (p.name || p.projectId).length),
    );
    const text = renderTerminalReport(report, { color: false, width: 120 });
    const { rows, wrapped } = await showInTerminal(text, 120);
    expect(wrapped).toEqual([]);
    const head =
      rows.map((r) => r.join("")).find((r) => r.trimStart().startsWith("Project ")) ?? "";
    // Two spaces of indent, the names, two spaces of gap, then the first figure's heading.
    expect(head.indexOf("Run pass")).toBe(2 + Math.max(longest, "Project".length) + 2);
  });
});

describe("terminalWidth", () => {
  const pipe = { isTTY: false } as NodeJS.WriteStream;
  it.each([
    ["a terminal: its own columns", { isTTY: true, columns: 132 } as NodeJS.WriteStream, {}, 132],
    ["piped with COLUMNS set", pipe, { COLUMNS: "120" }, 120],
    ["piped without COLUMNS: 80", pipe, {}, 80],
    ["never narrower than 60", pipe, { COLUMNS: "40" }, 60],
  ])("%s", (_, stream, env, expected) => {
    expect(terminalWidth(stream, env as NodeJS.ProcessEnv)).toBe(expected);
  });
});
