import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { renderDigestEmail } from "../../src/destinations/email/messages/email-digest.js";
import { renderTeamsDigest } from "../../src/destinations/msteams/messages/teams-digest.js";
import { renderSlackDigest } from "../../src/destinations/slack/messages/slack-digest.js";
import { webhookDigestBody } from "../../src/destinations/webhook/messages/webhook-digest.js";
import { renderTerminalReport } from "../../src/render/terminal/terminal-report.js";
import type { Report } from "../../src/report/types.js";
import { type Counts, checkoutReport, project } from "./report-fixture.js";

// Issue 36 item 3, PRODUCT.md "Numbers": a change printed beside two printed figures is their
// difference as printed. Random pairs of periods for one project; every `before → after (change`
// that any renderer prints is parsed back and checked: after − before = change at the printed
// precision for rates (pp), and change = (after − before) / before in whole percent for counts.

const arbCounts: fc.Arbitrary<Counts> = fc
  .record({
    runsPassed: fc.integer({ min: 0, max: 400 }),
    runsFailed: fc.integer({ min: 1, max: 400 }),
    testsPassed: fc.integer({ min: 1, max: 20_000 }),
    testsFailed: fc.integer({ min: 0, max: 3_000 }),
    testsSkipped: fc.integer({ min: 0, max: 500 }),
    testsTimedOut: fc.integer({ min: 0, max: 300 }),
    testsFlaky: fc.integer({ min: 0, max: 1_500 }),
  })
  .map((c) => ({ ...c, testsFlaky: Math.min(c.testsFlaky, c.testsPassed) }));

function reportOf(prior: Counts, current: Counts): Report {
  const moved = project({ id: "moved", name: "Moved", prior, current });
  return checkoutReport({ projects: [moved], alerts: [] });
}

/** Every text a reader sees, from every renderer. */
function everyText(report: Report): Record<string, string> {
  const slack = renderSlackDigest(report, { key: "k" });
  const mail = renderDigestEmail(report, { key: "k" });
  const body = webhookDigestBody(report, "k");
  return {
    slack: JSON.stringify([slack.main, slack.thread]),
    emailHtml: mail.html,
    emailText: `${mail.subject}\n${mail.text}`,
    teams: JSON.stringify(renderTeamsDigest(report)),
    webhook: [body.news.summary, ...body.news.lines.map((l) => l.text)].join("\n"),
    terminal: renderTerminalReport(report, { color: false, width: 120 }),
  };
}

const NUMBER = String.raw`\d[\d,]*(?:\.\d+)?`;
const SHOWN = new RegExp(
  String.raw`(${NUMBER})(%?) \u2192 (${NUMBER})(%?) \((\u00b1|\+|\u2212)(${NUMBER})( pp|%)`,
  "g",
);

const num = (text: string) => Number(text.replace(/,/g, ""));
const decimals = (text: string) => text.split(".")[1]?.length ?? 0;

/** What is wrong with one printed change, or null when it adds up. */
function problem(match: RegExpMatchArray): string | null {
  const [all, before = "", beforePct, after = "", afterPct, sign, size = "", unit] = match;
  const delta = (sign === "\u2212" ? -1 : 1) * num(size);
  if (unit === " pp") {
    const digits = decimals(size);
    if (beforePct !== "%" || afterPct !== "%")
      return `${all}: pp beside figures that are not rates`;
    if (decimals(before) !== digits || decimals(after) !== digits)
      return `${all}: figures and change at different precision`;
    const scale = 10 ** digits;
    const printed = Math.round((num(after) - num(before)) * scale);
    return printed === Math.round(delta * scale) ? null : `${all}: after − before ≠ change`;
  }
  if (beforePct === "%" || afterPct === "%") return `${all}: a percent change of a rate`;
  if (num(before) === 0) return `${all}: a percent change of a prior of 0`;
  // Whole percent, a half rounded either way.
  const pct = ((num(after) - num(before)) / num(before)) * 100;
  return Math.abs(pct - delta) <= 0.5 + 1e-9
    ? null
    : `${all}: change is not (after − before) / before`;
}

describe("changes that add up as printed", () => {
  it("in Slack, the email's HTML and text, Teams, the webhook's summary and the terminal", () => {
    fc.assert(
      fc.property(arbCounts, arbCounts, (prior, current) => {
        const texts = everyText(reportOf(prior, current));
        for (const [where, text] of Object.entries(texts)) {
          const problems = [...text.matchAll(SHOWN)].map(problem).filter((p) => p !== null);
          expect(problems, where).toEqual([]);
        }
      }),
      { numRuns: 60 },
    );
  });

  it("finds the printed changes it checks (the pattern is not vacuous)", () => {
    const prior = {
      runsPassed: 100,
      runsFailed: 10,
      testsPassed: 9_000,
      testsFailed: 10,
      testsFlaky: 30,
    };
    const texts = everyText(reportOf(prior, { ...prior, testsFailed: 80, testsFlaky: 300 }));
    for (const [where, text] of Object.entries(texts)) {
      expect([...text.matchAll(SHOWN)].length, where).toBeGreaterThan(0);
    }
  });

  it("prints 2.36% → 3.03% as +0.67 pp, never 2.4% → 3.0% (+0.7 pp)", () => {
    const base = { runsPassed: 100, runsFailed: 0, testsPassed: 10_000, testsFailed: 0 };
    const texts = everyText(reportOf({ ...base, testsFlaky: 236 }, { ...base, testsFlaky: 303 }));
    expect(texts.webhook).toContain("Moved: flaky rate 2.36% \u2192 3.03% (+0.67 pp, worse)");
  });
});
