import { describe, expect, it } from "vitest";
import { skippingNews } from "../../src/render/skipping-news.js";
import { checkoutReport, project } from "./report-fixture.js";

// A pass rate that improves because the suite skips more is not good news: the digest says so.

const prior = {
  runsPassed: 150,
  runsFailed: 50,
  testsPassed: 9_000,
  testsFailed: 800,
  testsSkipped: 200,
  testsFlaky: 50,
};

function reportWith(current: typeof prior) {
  const report = checkoutReport();
  return { ...report, projects: [project({ id: "p1", name: "Search API", current, prior })] };
}

describe("skippingNews", () => {
  it("names a pass rate that improves while the skipped share rises", () => {
    const report = reportWith({
      ...prior,
      runsPassed: 190,
      runsFailed: 10,
      testsFailed: 300,
      testsSkipped: 700,
    });
    expect(skippingNews(report).find((l) => l.projectId === "p1")).toEqual({
      kind: "worse",
      projectId: "p1",
      name: "Search API",
      short: "Search API passes more because it skips more",
      what: ": passes more because it skips more \u2014 run pass rate 75.0% \u2192 95.0% (+20.0 pp) while the skipped share went 2.0% \u2192 7.0% (+5.0 pp)",
      tone: "bad",
    });
  });

  it("says nothing when the pass rate improves without more skips", () => {
    const report = reportWith({ ...prior, runsPassed: 190, runsFailed: 10, testsFailed: 300 });
    expect(skippingNews(report).filter((l) => l.projectId === "p1")).toEqual([]);
  });

  it("says nothing when skips rise but the pass rate does not improve", () => {
    const report = reportWith({ ...prior, testsFailed: 300, testsSkipped: 700 });
    expect(skippingNews(report).filter((l) => l.projectId === "p1")).toEqual([]);
  });
});
