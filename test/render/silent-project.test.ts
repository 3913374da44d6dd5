import { describe, expect, it } from "vitest";
import { renderDigestEmail } from "../../src/destinations/email/messages/email-digest.js";
import { renderSlackDigest } from "../../src/destinations/slack/messages/slack-digest.js";
import type { PeriodPair } from "../../src/periods/types.js";
import { silentNews, silentSentence } from "../../src/render/silent-news.js";
import { renderTerminalReport } from "../../src/render/terminal/terminal-report.js";
import type { Report } from "../../src/report/types.js";
import { mrkdwnTexts } from "../destinations/slack/messages/slack-blocks.js";
import { checkoutReport, project, WEEK } from "./report-fixture.js";

const DAY: PeriodPair = {
  kind: "previous_day",
  compareTo: "previous_period",
  current: { start: "2026-11-22", end: "2026-11-22" },
  prior: { start: "2026-11-21", end: "2026-11-21" },
};

const NONE = { runsPassed: 0, runsFailed: 0, testsPassed: 0, testsFailed: 0, testsFlaky: 0 };

/** The checkout fixture with a "Mobile smoke" suite that ran 3 times and then stopped. */
function withSilentSuite(periods: PeriodPair = DAY): Report {
  const report = checkoutReport({ periods });
  const stopped = project(
    {
      id: "msmoke1",
      name: "Mobile smoke",
      current: NONE,
      prior: { runsPassed: 2, runsFailed: 1, testsPassed: 90, testsFailed: 3, testsFlaky: 1 },
      silent: true,
    },
    periods,
  );
  return {
    ...report,
    projects: [...report.projects, stopped],
    total: { ...report.total, silent: ["Mobile smoke"] },
  };
}

describe("a silent project", () => {
  it("is said in words that name the day and the runs before", () => {
    expect(silentNews(withSilentSuite()).map(silentSentence)).toEqual([
      "Mobile smoke had no runs on Nov 22 (3 the day before)",
    ]);
    const week = withSilentSuite(WEEK);
    expect(silentNews(week).map(silentSentence)).toEqual([
      "Mobile smoke had no runs in Nov 9 \u2013 15, 2026 (3 the 7 days before)",
    ]);
    const lastWeek = withSilentSuite({
      ...DAY,
      compareTo: "same_period_last_week",
      prior: { start: "2026-11-15", end: "2026-11-15" },
    });
    expect(silentSentence(silentNews(lastWeek)[0] ?? { projectId: "", name: "", what: "" })).toBe(
      "Mobile smoke had no runs on Nov 22 (3 the same day a week before)",
    );
  });

  it("is the first news of the Slack message and its notification text, and the team figures say they leave it out", () => {
    const { main, thread } = renderSlackDigest(withSilentSuite(), { key: "k" });
    const first = main.blocks[0];
    expect(first?.type).toBe("section");
    const text = first?.type === "section" ? (first.text as { text: string }).text : "";
    expect(text.split("\n")[0]).toBe(
      "\u26A0\uFE0F *Mobile smoke* had no runs on Nov 22 (3 the day before)",
    );
    expect(main.text).toMatch(
      /^Checkout squad \u00b7 weekly \u00b7 Nov 22, 2026: Mobile smoke had no runs on Nov 22 \(3 the day before\); /,
    );
    expect(mrkdwnTexts(main).join("\n")).toContain(
      "Team figures leave out Mobile smoke (silent: no runs this period), in both periods",
    );
    expect(thread.length).toBeLessThanOrEqual(1);
  });

  it("comes first in the email, before the team figures, in HTML and text", () => {
    const mail = renderDigestEmail(withSilentSuite(), { key: "k" });
    const said = mail.html.indexOf("Mobile smoke had no runs on Nov 22 (3 the day before)");
    expect(said).toBeGreaterThan(0);
    expect(said).toBeLessThan(mail.html.indexOf(">Team<"));
    expect(mail.text.split("\n").slice(0, 4)).toContain(
      "! Mobile smoke had no runs on Nov 22 (3 the day before)",
    );
    expect(mail.text).toContain("Team figures leave out Mobile smoke");
  });

  it("comes first in the preview, and heads the project list", () => {
    const text = renderTerminalReport(withSilentSuite(), { color: false, width: 80 });
    const lines = text.split("\n");
    const said = lines.findIndex((l) => l.startsWith("! Mobile smoke had no runs on Nov 22"));
    expect(said).toBe(0);
    expect(said).toBeLessThan(lines.indexOf("Team"));
    const listed = lines.filter((l) => /^ {2}(Team|Mobile smoke|Web E2E) /.test(l));
    expect(listed.slice(0, 3).map((l) => l.trim().split("  ")[0])).toEqual([
      "Team",
      "Mobile smoke",
      "Web E2E",
    ]);
  });
});
