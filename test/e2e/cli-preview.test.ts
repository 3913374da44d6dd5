import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHART_WORKER_IDLE_MS } from "../../src/chart-painter/trend-chart-painter.js";
import { pngSize } from "../render/charts/png-pixels.js";
import { PROJECTS, startTeamFixture, type TeamFixture, ZONE } from "./cli-team-fixture.js";
import { countRuns, flakyRate, percent, pool, runPassRate, runsIn } from "./raw-figures.js";

/**
 * `preview`: the digest as terminal text, run as a user runs it, with figures recomputed from
 * the emulator's raw runs.
 */

let f: TeamFixture;
beforeAll(async () => {
  f = await startTeamFixture();
});
afterAll(async () => {
  await f.close();
});

/** Monday 08:00 in Berlin: the preview of the weekly digest of Nov 9 – 15. */
const WEEKLY_PREVIEW = [
  "preview",
  "--team",
  "checkout",
  "--digest",
  "weekly",
  "--at",
  "2026-11-16T07:00:00Z",
];

describe("preview", () => {
  it("prints the team's and each project's figures as the raw runs give them, with sparklines and no colour codes", async () => {
    const result = await f.cli(WEEKLY_PREVIEW);
    expect(result.code, result.stderr).toBe(0);
    const text = result.stdout;
    // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for ANSI escapes
    expect(text).not.toMatch(/\x1b\[/);
    expect(text).toContain("Checkout squad \u00b7 weekly \u00b7 Nov 9 \u2013 15, 2026");
    expect(text).toContain("vs previous week (Nov 2 \u2013 8, 2026)");

    const week = { start: "2026-11-09", end: "2026-11-15" };
    const perProject = PROJECTS.map((p) =>
      countRuns(runsIn(f.runsOf(p.id), week, ZONE, p.filters)),
    );
    const team = pool(perProject);
    expect(text).toMatch(new RegExp(`Run pass rate +${escapeRegExp(percent(runPassRate(team)))}`));
    expect(text).toMatch(new RegExp(`Flaky rate +${escapeRegExp(percent(flakyRate(team)))}`));
    expect(text).toMatch(new RegExp(`Runs +${team.runs.toLocaleString("en-US")}\\b`));

    const lines = text.split("\n");
    // The table's value columns are the digest's news (issue 36), so each figure is read under
    // its heading, where it is shown: a value ends where its right-aligned heading ends.
    const head = lines.find((l) => l.trimStart().startsWith("Project ")) ?? "";
    const under = (line: string, label: string): string | undefined => {
      const at = head.search(new RegExp(`  ${escapeRegExp(label)}(  |$)`));
      if (at < 0) return undefined;
      const end = at + 2 + label.length;
      return line.slice(0, end).trim().split(/ {2,}/).pop();
    };
    expect(under(head, "Run pass"), "the run pass rate, always a column").toBe("Run pass");
    for (const [i, p] of PROJECTS.entries()) {
      const raw = perProject[i];
      if (!raw) throw new Error("no raw figures");
      const line = lines.find((l) => l.trimStart().startsWith(`${p.name} `)) ?? "";
      expect(line, `a line for ${p.name}`).not.toBe("");
      expect(under(line, "Run pass")).toBe(percent(runPassRate(raw)));
      for (const [label, value] of [
        ["Runs", raw.runs.toLocaleString("en-US")],
        ["Flaky", percent(flakyRate(raw))],
      ] as const) {
        if (under(head, label) !== undefined) expect(under(line, label), label).toBe(value);
      }
      // Seven days of flaky rate, one bar each.
      expect(line).toMatch(/[\u2581-\u2588]{7}$/);
    }
  });

  it("with --charts writes the digest's charts as PNGs and exits, its chart worker ended", async () => {
    const dir = join(f.dir, "charts");
    // Given less than the chart worker's idle time: the command ends its worker as it closes
    // its clients, where a worker left to end by itself, if it held the process, would keep
    // it past that.
    const timeoutMs = CHART_WORKER_IDLE_MS - 5_000;
    const result = await f.cli([...WEEKLY_PREVIEW, "--charts", dir], { timeoutMs });
    expect(result.code, result.stderr).toBe(0);
    const files = await readdir(dir);
    expect(files).toEqual(expect.arrayContaining(["team-rates.png"]));
    for (const file of files) expect(result.stdout).toContain(`wrote ${join(dir, file)}`);
    expect(pngSize(await readFile(join(dir, "team-rates.png"))).width).toBe(1200);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
