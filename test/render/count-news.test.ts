import { describe, expect, it } from "vitest";
import { renderDigestEmail } from "../../src/destinations/email/messages/email-digest.js";
import { renderTeamsDigest } from "../../src/destinations/msteams/messages/teams-digest.js";
import { renderSlackDigest } from "../../src/destinations/slack/messages/slack-digest.js";
import { webhookDigestBody } from "../../src/destinations/webhook/messages/webhook-digest.js";
import { renderTerminalReport } from "../../src/render/terminal/terminal-report.js";
import type { Report } from "../../src/report/types.js";
import { type Counts, checkoutReport, project, quietTotal } from "./report-fixture.js";

// Issue 36 item 1: a count that the digest colours is news like a rate. A digest whose only
// news is Payments UI's failed tests going 10 → 80 names it first everywhere, lists Payments UI
// first among the projects, and tells its owners.

const RATES_STILL = ["runPassRate", "testPassRate", "flakyRate"] as const;

function counts(failed: number): Counts {
  return {
    runsPassed: 95,
    runsFailed: 5,
    testsPassed: 9_000,
    testsFailed: failed,
    testsFlaky: 20,
    meanRunDurationMs: 600_000,
  };
}

function onlyCountNews(): Report {
  const steady = (id: string, name: string) =>
    project({ id, name, current: counts(10), prior: counts(10) });
  return quietTotal(
    checkoutReport({
      alerts: [],
      projects: [
        steady("calm1", "Auth"),
        steady("calm2", "Billing"),
        project({
          id: "pay",
          name: "Payments UI",
          current: counts(80),
          prior: counts(10),
          noise: [...RATES_STILL],
        }),
      ],
    }),
  );
}

const OWNERS = { pay: ["U0PAYOWNER", "pay-lead@example.com"] };
const NEWS = "Payments UI: failed tests 10 \u2192 80 (+700%, worse)";

describe("a digest whose only news is a count change", () => {
  const report = onlyCountNews();

  it("names it first in Slack's notification text and first block, mentions the owner and lists the project first", () => {
    const post = renderSlackDigest(report, { key: "k", owners: OWNERS });
    expect(post.main.text).toContain(`: ${NEWS}`);
    const first = JSON.stringify(post.main.blocks[0]);
    expect(first).not.toContain("No significant change");
    expect(first).toContain("failed tests 10 \u2192 80 (+700%, worse)");
    expect(first).toContain("<@U0PAYOWNER>");
    const table = post.main.blocks.find((b) => b.type === "table") as unknown as {
      rows: { text: string }[][];
    };
    // Row 0 is the header, row 1 the team.
    expect(table.rows[2]?.[0]?.text).toBe("Payments UI");
    expect(table.rows[0]?.map((c) => c.text)).toContain("Failed");
  });

  it("ends the email's subject with it, opens the preheader and the text with it, and copies the owner", () => {
    const mail = renderDigestEmail(report, { key: "k", owners: OWNERS });
    expect(mail.subject).toMatch(/ \u00b7 Payments UI failed tests 10 \u2192 80$/);
    expect(mail.text.split("\n")[0]).toBe(`! ${NEWS}`);
    expect(mail.html).toContain(
      '<div style="display:none;max-height:0;overflow:hidden;">Payments UI: failed tests 10 \u2192 80',
    );
    expect(mail.cc).toEqual(["pay-lead@example.com"]);
  });

  it("opens the Teams card, the webhook's news and the terminal preview with it", () => {
    const card = JSON.stringify(renderTeamsDigest(report).attachments[0].content.body[0]);
    expect(card).toContain("Payments UI");
    expect(card).toContain("failed tests 10 \u2192 80 (+700%, worse)");
    const body = webhookDigestBody(report, "k");
    expect(body.news.lines[0]).toMatchObject({ kind: "worse", project_id: "pay", text: NEWS });
    expect(body.projects[0]?.id).toBe("pay");
    const terminal = renderTerminalReport(report, { color: false, width: 100 });
    expect(terminal.split("\n")[0]).toBe(`! ${NEWS}`);
  });
});
