import { describe, expect, it } from "vitest";
import { renderDigestEmail } from "../../src/destinations/email/messages/email-digest.js";
import { renderSlackDigest } from "../../src/destinations/slack/messages/slack-digest.js";
import { digestNews, newsSentence } from "../../src/render/digest-news.js";
import { renderTerminalReport } from "../../src/render/terminal/terminal-report.js";
import type { Report } from "../../src/report/types.js";
import { mrkdwnTexts } from "../destinations/slack/messages/slack-blocks.js";
import { checkoutReport, project, unavailable } from "./report-fixture.js";

// A configured project id the API's project list does not know has no name but its id: it is
// shown once, never "ghost-7 (ghost-7)" or a title beside the same id.

const ID = "ghost-7";

function withUnknown(fetched: boolean): Report {
  const report = checkoutReport();
  const ghost = fetched
    ? project({
        id: ID,
        current: { runsPassed: 9, runsFailed: 1, testsPassed: 90, testsFailed: 10, testsFlaky: 5 },
        prior: { runsPassed: 10, runsFailed: 0, testsPassed: 99, testsFailed: 1, testsFlaky: 0 },
      })
    : unavailable(ID, ID, "the insights API answered 404");
  return { ...report, projects: [ghost, ...report.projects] };
}

const twice = new RegExp(`${ID}\\W+${ID}`);

describe("an unknown project", () => {
  it("is named by its id once in the news", () => {
    const line = digestNews(withUnknown(false)).lines.find((l) => l.projectId === ID);
    expect(line && newsSentence(line)).toBe(
      `${ID} could not be fetched \u2014 the team figures leave it out`,
    );
  });

  it("is named by its id once in the mail, its text and its HTML", () => {
    for (const fetched of [true, false]) {
      const { text, html } = renderDigestEmail(withUnknown(fetched), { key: "k" });
      expect(text).not.toMatch(twice);
      expect(html).not.toMatch(twice);
      expect(text).toContain(ID);
    }
  });

  it("is named by its id once in Slack's project fields and in the terminal", () => {
    for (const fetched of [true, false]) {
      const { main, thread } = renderSlackDigest(withUnknown(fetched), {
        key: "k",
        maxProjectsInMessage: 1,
      });
      const texts = [...mrkdwnTexts(main), ...thread.flatMap((m) => mrkdwnTexts(m))].join("\n");
      expect(texts).toContain(ID);
      expect(texts).not.toMatch(twice);
      const terminal = renderTerminalReport(withUnknown(fetched), { color: false, width: 120 });
      expect(terminal).not.toMatch(twice);
    }
  });
});
