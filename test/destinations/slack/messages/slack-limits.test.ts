import { describe, expect, it } from "vitest";
import { escapeMrkdwn } from "../../../../src/destinations/slack/messages/escape-mrkdwn.js";
import { renderSlackDigest } from "../../../../src/destinations/slack/messages/slack-digest.js";
import {
  SLACK_LIMITS,
  slackLimitProblems,
  slackTextLength,
} from "../../../../src/destinations/slack/messages/slack-limits.js";
import type { SlackMessage, SlackPost } from "../../../../src/messages.js";
import { truncateText } from "../../../../src/render/truncate-text.js";
import type { Report } from "../../../../src/report/types.js";
import { checkoutReport, manyProjectsReport, unavailable } from "../../../render/report-fixture.js";
import { blocksOfType, mrkdwnTexts, tableRows } from "./slack-blocks.js";

const KEY = "checkout.weekly.2026-11-09";

function allMessages(post: SlackPost): SlackMessage[] {
  return [post.main, ...post.thread];
}

/** Every Slack limit, for every message of a post (main and each reply). */
function expectWithinLimits(post: SlackPost): void {
  for (const message of allMessages(post)) {
    expect(slackLimitProblems(message)).toEqual([]);
    expect(message.blocks.length).toBeLessThanOrEqual(50);
    expect(blocksOfType(message, "table").length).toBeLessThanOrEqual(1);
    // "Well under" Slack's 12,000 characters of text.
    expect(slackTextLength(message)).toBeLessThanOrEqual(9000);
  }
}

/** How many times each project id appears across the thread's fields. */
function threadIdCounts(post: SlackPost, report: Report): Map<string, number> {
  const texts = post.thread.flatMap(mrkdwnTexts);
  return new Map(
    report.projects.map((p) => {
      const marker = `\`${escapeMrkdwn(p.projectId)}\``;
      return [p.projectId, texts.filter((t) => t.includes(marker)).length];
    }),
  );
}

describe("Slack limits", () => {
  const big = manyProjectsReport(150);
  const available = big.projects.filter((p) => p.status === "ok").length;

  it.each(["table", "fields"] as const)(
    "keeps a 150-project digest within every limit (%s layout)",
    (projectLayout) => {
      const post = renderSlackDigest(big, { key: KEY, projectLayout });
      expectWithinLimits(post);
      expect(post.thread.length).toBeGreaterThan(1);
    },
  );

  it("lists the worst projects in the message and says how many more are in the thread", () => {
    const post = renderSlackDigest(big, { key: KEY });
    // Below the header, the team's row, then the projects.
    const listed = tableRows(post.main).slice(2);
    expect(listed).toHaveLength(10);
    const flaky = listed.map((row) => Number.parseFloat(row[5] ?? ""));
    expect(flaky).toEqual([...flaky].sort((a, b) => b - a));
    expect(mrkdwnTexts(post.main)).toContain(`+${available - 10} more projects in the thread`);
  });

  it("puts every project of a 150-project team in the thread exactly once", () => {
    const post = renderSlackDigest(big, { key: KEY });
    const counts = threadIdCounts(post, big);
    expect(counts.size).toBe(150);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    expect(post.thread.at(-1)?.text).toMatch(/projects \d+\u2013150 of 150$/);
  });

  it("lists fewer projects rather than overflow when asked for 99 in the message", () => {
    const post = renderSlackDigest(big, { key: KEY, maxProjectsInMessage: 500 });
    expectWithinLimits(post);
    const rows = tableRows(post.main).length;
    expect(rows).toBeLessThanOrEqual(100);
    expect(rows).toBeGreaterThan(11);
  });

  it("keeps a one-project digest within every limit, with no 'more' line", () => {
    const one = manyProjectsReport(1);
    const post = renderSlackDigest(one, { key: KEY });
    expectWithinLimits(post);
    expect(tableRows(post.main)).toHaveLength(3);
    expect(mrkdwnTexts(post.main).join("\n")).not.toContain("more project");
    // It fits in the message: no thread repeats it.
    expect(post.thread).toEqual([]);
  });

  it("stays within limits for a team with no projects", () => {
    const post = renderSlackDigest(checkoutReport({ projects: [], alerts: [] }), {
      key: KEY,
    });
    expectWithinLimits(post);
    expect(post.thread).toEqual([]);
  });

  it("stays within limits with huge names, reasons, many alerts and every project unavailable", () => {
    const long = "x&<>".repeat(1000);
    const report = checkoutReport({
      team: { name: "checkout", title: long, timezone: "Europe/Berlin" },
      digest: long,
      projects: Array.from({ length: 80 }, (_, i) => unavailable(`${long}${i}`, long, long)),
      alerts: Array.from({ length: 200 }, (_, i) => ({
        alert: long,
        severity: "critical" as const,
        value: 0.06,
        threshold: 0.05,
        projectId: `${i}`,
      })),
    });
    const post = renderSlackDigest(report, { key: KEY });
    expectWithinLimits(post);
    expect(mrkdwnTexts(post.main).join("\n")).toContain("\u2026 and ");
    expect(post.main.text.length).toBeLessThan(SLACK_LIMITS.messageChars);
  });
});

describe("slackLimitProblems", () => {
  it("finds each broken limit, so a passing check means something", () => {
    const field = { type: "mrkdwn", text: "f" };
    const message: SlackMessage = {
      text: "",
      blocks: [
        { type: "header", text: { type: "plain_text", text: "h".repeat(151) } },
        { type: "section", text: { type: "mrkdwn", text: "s".repeat(3001) } },
        { type: "section", fields: Array.from({ length: 11 }, () => field) },
        { type: "table", rows: [[{ type: "raw_text", text: " " }]] },
        {
          type: "table",
          rows: [Array.from({ length: 21 }, () => ({ type: "raw_text", text: "c" }))],
        },
        ...Array.from({ length: 46 }, () => ({ type: "divider" })),
      ],
    };
    const problems = slackLimitProblems(message).join("\n");
    for (const expected of [
      "text: empty",
      "blocks: 51 > 50",
      "blocks[0].text",
      "blocks[1].text",
      "blocks[2].fields: 11 > 10",
      "blocks[3].rows[0][0]: empty cell",
      "blocks: 2 tables",
      "blocks[4].rows[0]: 21 > 20",
    ]) {
      expect(problems).toContain(expected);
    }
  });
});

describe("truncateText", () => {
  it.each([
    ["short stays", "abc", 5, "abc"],
    ["long gets an ellipsis", "abcdefgh", 5, "abcd\u2026"],
    ["never half an entity", "ab &amp; cd", 6, "ab \u2026"],
    ["never half a link", "see <https://example.com|x>", 12, "see \u2026"],
    ["never half a surrogate pair", "a\u{1F680}\u{1F680}", 4, "a\u{1F680}\u2026"],
  ])("%s", (_name, text, max, expected) => {
    const out = truncateText(text, max);
    expect(out).toBe(expected);
    expect(out.length).toBeLessThanOrEqual(max);
  });
});
