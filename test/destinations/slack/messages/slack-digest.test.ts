import { describe, expect, it } from "vitest";
import { renderSlackDigest } from "../../../../src/destinations/slack/messages/slack-digest.js";
import { digestNews } from "../../../../src/render/digest-news.js";
import type { Report } from "../../../../src/report/types.js";
import {
  checkoutReport,
  DAY_VS_LAST_WEEK,
  deltasBetween,
  figures,
  LOOKBACK_NOTE,
  quietTotal,
  unavailableDeltas,
} from "../../../render/report-fixture.js";
import {
  blocksOfType,
  headerText,
  headlineField,
  mrkdwnTexts,
  sectionTexts,
  tableRows,
} from "./slack-blocks.js";

const KEY = "checkout.weekly.2026-11-09";

/** The fixture's team with nothing that is news: no alert, every project fetched, no significant change. */
function quietReport(overrides: Partial<Report> = {}): Report {
  const report = quietTotal(checkoutReport({ alerts: [], ...overrides }));
  report.projects = report.projects.filter(
    (p) => digestNews({ ...report, projects: [p] }).lines.length === 0,
  );
  return report;
}
const RED = "\u{1F534}";

describe("renderSlackDigest: what scripts and notifications read", () => {
  it("names team, digest and period, then the news (three and N more), then the two headline figures, in the fallback text", () => {
    const { main } = renderSlackDigest(checkoutReport(), { key: KEY });
    expect(main.text).toBe(
      "Checkout squad \u00b7 weekly \u00b7 Nov 9 \u2013 15, 2026: Team flaky-rate 2.1% \u2014 above critical 2%; Web E2E flaky-rate 4.5% \u2014 above warn 3%; Legacy &lt;suite&gt; (old-proj) could not be fetched \u2014 the team figures leave it out; and 9 more; run pass rate 95.1% (\u2248 +0.2 pp), flaky rate 2.0% (+1.1 pp)",
    );
  });

  it("says No significant change on a day without news, then the two headline figures", () => {
    const { main } = renderSlackDigest(quietReport(), { key: KEY });
    expect(main.text).toBe(
      "Checkout squad \u00b7 weekly \u00b7 Nov 9 \u2013 15, 2026: No significant change; run pass rate 95.1% (\u2248 +0.2 pp), flaky rate 2.0% (\u2248 +1.1 pp)",
    );
    expect(main.blocks[0]).toEqual({
      type: "section",
      text: {
        type: "mrkdwn",
        text: "*No significant change* \u00b7 run pass rate 95.1% (\u2248 +0.2 pp), flaky rate 2.0% (\u2248 +1.1 pp)",
      },
    });
  });

  it("marks noise with ≈ in the fallback text and says new when the prior had no data, after the news", () => {
    const report = quietReport({ periods: DAY_VS_LAST_WEEK });
    const current = figures({
      runsPassed: 150,
      runsFailed: 10,
      testsPassed: 900,
      testsFailed: 100,
      testsFlaky: 21,
    });
    const prior = figures({
      runsPassed: 0,
      runsFailed: 0,
      testsPassed: 950,
      testsFailed: 50,
      testsFlaky: 20,
    });
    report.total = {
      ...report.total,
      current,
      prior,
      deltas: deltasBetween(current, prior, ["flakyRate"]),
    };
    const { main } = renderSlackDigest(report, { key: KEY });
    expect(main.text).toBe(
      // Twice the failed tests and 5 pp off the test pass rate are news, worse at equal size (10
      // steps each: ties by figure order); runs up from 0 is a change, neither good nor bad.
      "Checkout squad \u00b7 weekly \u00b7 Nov 15, 2026: Team: failed tests 50 \u2192 100 (+100%, worse); Team: test pass rate 95.0% \u2192 90.0% (\u22125.0 pp, worse); Team: runs 0 \u2192 160; run pass rate 93.8% (new), flaky rate 2.1% (\u2248 +0.1 pp)",
    );
  });

  it("carries the key, team, digest and period in the metadata, every value a string", () => {
    const { metadata } = renderSlackDigest(checkoutReport(), { key: KEY });
    expect(metadata).toEqual({
      event_type: "insights_digest",
      event_payload: {
        key: KEY,
        team: "checkout",
        digest: "weekly",
        period_start: "2026-11-09",
        period_end: "2026-11-15",
      },
    });
  });
});

describe("renderSlackDigest: the message", () => {
  it("opens with the news, worst first, then a header of team title, digest and period", () => {
    const { main } = renderSlackDigest(checkoutReport(), { key: KEY });
    expect(main.blocks[0]).toEqual({
      type: "section",
      text: {
        type: "mrkdwn",
        text: [
          `${RED} *Team* flaky-rate 2.1% \u2014 above critical 2%`,
          `${RED} *Web E2E* flaky-rate 4.5% \u2014 above warn 3%`,
          "\u26A0\uFE0F *Legacy &lt;suite&gt;* (old-proj) could not be fetched \u2014 the team figures leave it out",
          // Failed and timed-out tests are news too (issue 36): nine changes follow under What changed.
          "\u2026 and 9 more under _What changed_ below",
        ].join("\n"),
      },
    });
    expect(main.blocks[1]).toEqual({
      type: "header",
      text: {
        type: "plain_text",
        text: "Checkout squad \u00b7 weekly \u00b7 Nov 9 \u2013 15, 2026",
      },
    });
  });

  it("says the dates, the zone and what the period is compared with", () => {
    const week = renderSlackDigest(checkoutReport(), { key: KEY }).main;
    expect(mrkdwnTexts(week)).toContain(
      "Nov 9 \u2013 15, 2026 \u00b7 Europe/Berlin \u00b7 vs previous 7 days (Nov 2 \u2013 8, 2026)",
    );
    const day = renderSlackDigest(checkoutReport({ periods: DAY_VS_LAST_WEEK }), { key: KEY }).main;
    expect(mrkdwnTexts(day)).toContain(
      "Nov 15, 2026 \u00b7 Europe/Berlin \u00b7 vs Nov 8, 2026 (same day last week)",
    );
  });

  it("shows the headline figures as fields with direction-aware cues", () => {
    const { main } = renderSlackDigest(checkoutReport(), { key: KEY });
    expect(headlineField(main, "Run pass rate")).toBe(
      // Significant, but under min_change_pp (0.5): no news, no colour.
      "*Run pass rate*\n95.1%  \u2248 +0.2 pp",
    );
    expect(headlineField(main, "Flaky rate")).toBe(`*Flaky rate*\n2.0%  ${RED} \u2191 +1.1 pp`);
    expect(headlineField(main, "Mean run duration")).toBe(
      // Under 10%: ≈.
      "*Mean run duration*\n6m 52s  \u2248 \u22124%",
    );
    expect(headlineField(main, "Runs")).toBe("*Runs*\n732  \u2248 +4%");
    // The fixture's test pass rate change is noise: ≈, no arrow, no colour.
    expect(headlineField(main, "Test pass rate")).toBe(
      "*Test pass rate*\n97.7%  \u2248 \u00b10.0 pp",
    );
    expect(headlineField(main, "Failed tests")).toMatch(/^\*Failed tests\*\n740/);
    expect(headlineField(main, "Timed-out tests")).toMatch(/^\*Timed-out tests\*\n100/);
  });

  it("lists projects worst first in one table, with — where a cell has nothing and new for a new project", () => {
    const { main } = renderSlackDigest(checkoutReport(), { key: KEY });
    expect(blocksOfType(main, "table")).toHaveLength(1);
    const rows = tableRows(main);
    // The columns are the news, at most four (issue 36): failed and timed-out tests push runs out.
    expect(rows[0]).toEqual([
      "Project",
      "Run pass",
      "\u0394",
      "Flaky",
      "\u0394",
      "Failed",
      "\u0394",
      "Timed out",
      "\u0394",
      "Flaky by day",
    ]);
    expect(rows.slice(1).map((r) => r[0])).toEqual([
      "Team",
      "Web E2E",
      "Payments",
      "Mobile iOS",
      "*bold*<@U123>",
      "API contract",
    ]);
    // The team's own row first, for comparison; every sparkline on its own scale.
    expect(rows[1]).toEqual([
      "Team",
      "95.1%",
      "\u2248 +0.2 pp",
      "2.0%",
      `${RED} \u2191 +1.1 pp`,
      "740",
      "\u00b10%",
      "100",
      "\u00b10%",
      "\u2585\u2586\u2587\u2588\u2587\u2587\u2588",
    ]);
    expect(rows[2]).toEqual([
      "Web E2E",
      "91.0%",
      `${RED} \u2193 \u22123.1 pp`,
      "4.5%",
      `${RED} \u2191 +3.3 pp`,
      "500",
      `${RED} \u2191 +79%`,
      "100",
      `${RED} \u2191 +400%`,
      "\u2583\u2585\u2587\u2588\u2586\u2587\u2588",
    ]);
    expect(rows[3]?.[2]).toBe("\u2014");
    expect(rows[4]?.slice(2, 5)).toEqual(["new", "1.5%", "new"]);
    for (const row of rows) for (const cell of row) expect(cell.trim()).not.toBe("");
  });

  it("leaves the flaky-by-day column out when the period is a single day", () => {
    const { main } = renderSlackDigest(checkoutReport({ periods: DAY_VS_LAST_WEEK }), { key: KEY });
    expect(tableRows(main)[0]).not.toContain("Flaky by day");
  });

  it("can list projects as section fields instead of a table", () => {
    const { main } = renderSlackDigest(checkoutReport(), { key: KEY, projectLayout: "fields" });
    expect(blocksOfType(main, "table")).toHaveLength(0);
    const field = mrkdwnTexts(main).find((t) => t.includes("`pdqmxlz`"));
    expect(field).toContain(`Flaky 4.5% ${RED} \u2191 +3.3 pp`);
    // The same shape as the table's cell: each project on its own scale, not inline code.
    expect(field).toContain("Flaky by day \u2583\u2585\u2587\u2588\u2586\u2587\u2588");
  });

  it("lists the news that did not fit the first block under What changed: worse before better, by size", () => {
    const { main } = renderSlackDigest(checkoutReport(), { key: KEY });
    expect(sectionTexts(main)).toContain(
      [
        "*What changed* (continued)",
        // Sizes in news thresholds: +400% is 40 steps of 10%, +3.3 pp is 6.6 steps of 0.5 pp.
        `${RED} *Web E2E*: timed-out tests 20 \u2192 100 (+400%, worse)`,
        `${RED} *Web E2E*: failed tests 280 \u2192 500 (+79%, worse)`,
        `${RED} *Web E2E*: flaky rate 1.2% \u2192 4.5% (+3.3 pp, worse)`,
        `${RED} *Web E2E*: run pass rate 94.1% \u2192 91.0% (\u22123.1 pp, worse)`,
        `${RED} *Web E2E*: test pass rate 97.0% \u2192 94.0% (\u22123.0 pp, worse)`,
        `${RED} *Team*: flaky rate 0.9% \u2192 2.0% (+1.1 pp, worse)`,
        "\u{1F7E2} *API contract*: failed tests 200 \u2192 100 (\u221250%, better)",
        "\u{1F7E2} *API contract*: run pass rate 96.4% \u2192 98.5% (+2.1 pp, better)",
        "\u{1F7E2} *API contract*: test pass rate 99.0% \u2192 99.5% (+0.5 pp, better)",
      ].join("\n"),
    );
    expect(sectionTexts(main)).not.toContain("Top movers");
  });

  it("names an unavailable project without the operator's advice, and says the totals leave it out", () => {
    const { main } = renderSlackDigest(checkoutReport(), { key: KEY });
    expect(sectionTexts(main)).not.toContain("503");
    expect(mrkdwnTexts(main)).toContain("Totals leave out 1 unavailable project");
    expect(tableRows(main).map((r) => r[0])).not.toContain("Legacy <suite>");
  });

  it("says when the prior period is not available, for the team and for a single project", () => {
    const report = checkoutReport();
    report.total = {
      ...report.total,
      prior: null,
      priorNote: LOOKBACK_NOTE,
      deltas: unavailableDeltas(LOOKBACK_NOTE),
    };
    const { main } = renderSlackDigest(report, { key: KEY });
    expect(mrkdwnTexts(main)).toContain(`\u2139\uFE0F ${LOOKBACK_NOTE}`);
    expect(headlineField(main, "Flaky rate")).toBe("*Flaky rate*\n2.0%");
    expect(main.text).toMatch(/run pass rate 95\.1%, flaky rate 2\.0%$/);

    const perProject = renderSlackDigest(checkoutReport(), { key: KEY }).main;
    expect(mrkdwnTexts(perProject)).toContain(`\u2139\uFE0F Payments: ${LOOKBACK_NOTE}`);
  });

  it("links each listed project's dashboard with plain mrkdwn links, no buttons, its id URL-encoded", () => {
    const { main } = renderSlackDigest(checkoutReport(), { key: KEY });
    // Link buttons warn in Slack unless the app has an interactivity URL.
    expect(blocksOfType(main, "actions")).toHaveLength(0);
    const links = mrkdwnTexts(main).find((t) => t.startsWith("Dashboards: ")) ?? "";
    const labels = [...links.matchAll(/<([^|>]+)\|([^>]+)>/g)].map((m) => [m[1], m[2]]);
    expect(labels.map(([, label]) => label)).toEqual([
      "Web E2E",
      "Payments",
      "Mobile iOS",
      // A name's formatting marks are shown, not obeyed: the lookalike of `*` does not bold.
      "\u2217bold\u2217&lt;@U123&gt;",
      "API contract",
    ]);
    expect(labels[3]?.[0]).toBe(
      "https://insights.example.com/projects/evil%26id?range=7d&team=checkout",
    );
  });

  it("links the team's dashboard once when the template names no project, and nothing without a dashboard", () => {
    const team = renderSlackDigest(
      checkoutReport({ dashboardUrl: "https://insights.example.com/teams/checkout" }),
      { key: KEY },
    );
    expect(mrkdwnTexts(team.main)).toContain(
      "Dashboards: <https://insights.example.com/teams/checkout|Open dashboard>",
    );
    const none = renderSlackDigest(checkoutReport({ dashboardUrl: null }), { key: KEY });
    expect(mrkdwnTexts(none.main).join("\n")).not.toContain("Dashboards:");
  });

  it("sends no thread when every project fits in the message", () => {
    const { thread } = renderSlackDigest(checkoutReport(), { key: KEY });
    expect(thread).toEqual([]);
  });

  it("has one table, right under the heading that names it", () => {
    const { main } = renderSlackDigest(checkoutReport(), { key: KEY });
    const index = main.blocks.findIndex((b) => b.type === "table");
    expect(main.blocks.filter((b) => b.type === "table")).toHaveLength(1);
    expect(JSON.stringify(main.blocks[index - 1])).toContain("*Projects*");
  });

  it("puts every project's details in the thread, unavailable ones last, when not all fit", () => {
    const { thread } = renderSlackDigest(checkoutReport(), { key: KEY, maxProjectsInMessage: 2 });
    expect(thread).toHaveLength(1);
    const fields = mrkdwnTexts(thread[0] ?? { text: "", blocks: [] }).slice(1);
    expect(fields).toHaveLength(6);
    expect(fields[0]).toBe(
      `*<https://insights.example.com/projects/pdqmxlz?range=7d&amp;team=checkout|Web E2E>* \u00b7 \`pdqmxlz\` \u00b7 branch main, tags smoke, e2e\n` +
        `Runs 200 \u2248 \u22121%\nRun pass 91.0% ${RED} \u2193 \u22123.1 pp\nFlaky 4.5% ${RED} \u2191 +3.3 pp\n` +
        // Counts are news like rates: the thread shows their change, so a red team is explained.
        `Failed 500 ${RED} \u2191 +79% \u00b7 timed out 100 ${RED} \u2191 +400%\nFlaky by day \u2583\u2585\u2587\u2588\u2586\u2587\u2588`,
    );
    expect(fields[5]).toContain(
      "\u26A0\uFE0F could not be fetched \u2014 the team figures leave it out",
    );
    expect(fields[5]).not.toContain("503");
    expect(thread[0]?.text).toBe(
      "Checkout squad \u00b7 weekly \u00b7 Nov 9 \u2013 15, 2026: projects 1\u20136 of 6",
    );
  });

  it("truncates a very long team title in the header to 150 characters", () => {
    const report = checkoutReport();
    report.team = { ...report.team, title: "\u{1F680}".repeat(100) };
    const { main } = renderSlackDigest(report, { key: KEY });
    const header = headerText(main);
    expect(header.length).toBeLessThanOrEqual(150);
    expect(header.endsWith("\u2026")).toBe(true);
    // No half of a surrogate pair before the ellipsis.
    expect(header.slice(0, -1)).toBe("\u{1F680}".repeat((header.length - 1) / 2));
  });
});
