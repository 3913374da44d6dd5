import { describe, expect, it } from "vitest";
import { renderWorkbook } from "../../src/render/workbook/workbook.js";
import { DEFAULT_RULES } from "../../src/report/deltas.js";
import { figuresFromCounts, sumFigures } from "../../src/report/figures.js";
import { splitPartition, splitTags } from "../../src/report/slices.js";
import type { AvailableProject, Figures } from "../../src/report/types.js";
import { checkoutReport } from "./report-fixture.js";
import { loadWorkbook, records, value } from "./workbook-read.js";

// Issue 37: the workbook's Slices sheet, one row per slice of each split, values exact.

function flaky(runs: number, tests: number, flakyCount: number): Figures {
  return figuresFromCounts(
    { passed: runs, failed: 0, meanDurationMs: 60_000 },
    { passed: tests, failed: 0, skipped: 0, flaky: flakyCount, timedOut: 0 },
  );
}

const parts = [
  { name: "main", prior: flaky(90, 9000, 90), current: flaky(90, 9000, 91) },
  { name: "release-2.3", prior: flaky(10, 1000, 10), current: flaky(10, 1000, 80) },
];

describe("the Slices sheet", () => {
  it("has a row per slice with its figures, change and rate/mix effects; none without slices", async () => {
    const report = checkoutReport();
    const first = report.projects[0] as AvailableProject;
    const whole = {
      prior: sumFigures([...parts.map((p) => p.prior), flaky(5, 500, 5)]),
      current: sumFigures([...parts.map((p) => p.current), flaky(5, 500, 5)]),
    };
    const split = splitPartition("branch", whole, parts, DEFAULT_RULES);
    if (!split.ok) throw new Error(split.reason);
    const tags = splitTags(
      [{ ...(parts[1] as (typeof parts)[number]), name: "smoke" }],
      DEFAULT_RULES,
    );
    const sliced = { ...first, slices: { splits: [split.split, tags] } };
    const book = await loadWorkbook(
      await renderWorkbook({ ...report, projects: [sliced, ...report.projects.slice(1)] }),
    );
    const ws = book.getWorksheet("Slices");
    if (!ws) throw new Error("no Slices sheet");
    const rows = records(ws);
    expect(rows.map((r) => `${value(r, "Split")} ${value(r, "Slice")}`)).toEqual([
      "branch main",
      "branch release-2.3",
      "branch other",
      "tags smoke",
    ]);
    const release = rows[1];
    if (!release) throw new Error("no row");
    expect(value(release, "Flaky rate")).toBeCloseTo(0.08, 12);
    expect(value(release, "Flaky rate prior")).toBeCloseTo(0.01, 12);
    expect(value(release, "Flaky change (pp)")).toBeCloseTo(7, 9);
    expect(value(release, "Flaky verdict")).toBe("worse");
    const effects = rows
      .slice(0, 3)
      .map((r) => [value(r, "Flaky rate effect (pp)"), value(r, "Flaky mix effect (pp)")]);
    const sum = effects.flat().reduce((a: number, v) => a + Number(v), 0);
    const changePp = ((whole.current.flakyRate ?? 0) - (whole.prior.flakyRate ?? 0)) * 100;
    expect(sum).toBeCloseTo(changePp, 9);
    expect(value(rows[3] as Map<string, never>, "Flaky rate effect (pp)")).toBeNull();

    const plain = await loadWorkbook(await renderWorkbook(report));
    expect(plain.getWorksheet("Slices")).toBeUndefined();
  });
});

describe("the Slack thread", () => {
  it("carries a reply saying where each split project's flaky rate moved", async () => {
    const { renderSlackDigest } = await import(
      "../../src/destinations/slack/messages/slack-digest.js"
    );
    const report = checkoutReport();
    const first = report.projects[0] as AvailableProject;
    const whole = {
      prior: sumFigures(parts.map((p) => p.prior)),
      current: sumFigures(parts.map((p) => p.current)),
    };
    const split = splitPartition("branch", whole, parts, DEFAULT_RULES);
    if (!split.ok) throw new Error(split.reason);
    const sliced = { ...first, slices: { splits: [split.split] } };
    const post = renderSlackDigest(
      { ...report, projects: [sliced, ...report.projects.slice(1)] },
      { key: "k" },
    );
    const reply = post.thread.find((m) => m.text.endsWith("where it moved"));
    expect(JSON.stringify(reply?.blocks)).toContain("release-2.3 1.0% \u2192 8.0% (+7.0 pp)");
  });
});
