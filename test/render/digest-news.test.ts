import { describe, expect, it } from "vitest";
import { renderDigestEmail } from "../../src/destinations/email/messages/email-digest.js";
import { renderSlackDigest } from "../../src/destinations/slack/messages/slack-digest.js";
import { digestNews, newsSentence, newsSummary } from "../../src/render/digest-news.js";
import type { AvailableProject, FiringAlert, Report } from "../../src/report/types.js";
import { type Counts, checkoutReport, project, quietTotal, unavailable } from "./report-fixture.js";

// The news a digest opens with, decided once: its order, its words, its cut at three, and who
// it pings. Small builders: a project whose flaky rate moved from one value to another.

function counts(flaky: number, runsPassed = 95): Counts {
  return {
    runsPassed,
    runsFailed: 100 - runsPassed,
    testsPassed: 9_000,
    testsFailed: 1_000,
    testsFlaky: flaky,
  };
}

function moved(id: string, from: number, to: number, noise = false): AvailableProject {
  return project({
    id,
    name: id,
    current: counts(to),
    prior: counts(from),
    noise: noise ? ["flakyRate"] : [],
  });
}

function silent(id: string): AvailableProject {
  return project({
    id,
    name: id,
    silent: true,
    current: { runsPassed: 0, runsFailed: 0, testsPassed: 0, testsFailed: 0, testsFlaky: 0 },
    prior: counts(10),
  });
}

const ALERT: FiringAlert = {
  alert: "flaky",
  severity: "critical",
  value: 0.09,
  threshold: 0.06,
  projectId: "flows",
  metricName: "flaky rate",
  direction: "above",
};

/** A team of these projects whose own total moved by chance only. */
function team(projects: Report["projects"], alerts: FiringAlert[] = []): Report {
  return quietTotal(checkoutReport({ projects, alerts }));
}

describe("digestNews", () => {
  it("orders silent projects, alerts firing, projects not fetched, then changes by size, worse before better", () => {
    const report = team(
      [
        moved("better-big", 900, 100),
        moved("worse-small", 100, 200),
        moved("flows", 30, 900),
        unavailable("azenvfq", "Checkout API", "project not found: check the id"),
        silent("mobile"),
        moved("noisy", 100, 300, true),
      ],
      [ALERT],
    );
    expect(digestNews(report).lines.map(newsSentence)).toEqual([
      "mobile had no runs in Nov 9 \u2013 15, 2026 (100 the 7 days before)",
      "flows flaky rate 9.0% \u2014 above critical 6%",
      "Checkout API (azenvfq) could not be fetched \u2014 the team figures leave it out",
      "flows: flaky rate 0.3% \u2192 9.0% (+8.7 pp, worse)",
      "worse-small: flaky rate 1.0% \u2192 2.0% (+1.0 pp, worse)",
      "better-big: flaky rate 9.0% \u2192 1.0% (\u22128.0 pp, better)",
    ]);
  });

  it("shows three, then and N more, then the two headline figures", () => {
    const report = team([
      moved("a", 10, 500),
      moved("b", 10, 400),
      moved("c", 10, 300),
      moved("d", 10, 200),
    ]);
    const news = digestNews(report);
    expect(news.shown.map((l) => l.name)).toEqual(["a", "b", "c"]);
    expect(news.more).toBe(1);
    expect(newsSummary(news)).toMatch(
      /^a: .*; b: .*; c: .*; and 1 more; run pass rate .*, flaky rate /,
    );
  });

  it("names the team's own significant change, so no day says No significant change beside it", () => {
    const news = digestNews(checkoutReport({ projects: [], alerts: [] }));
    expect(news.lines.map(newsSentence)).toEqual([
      "Team: flaky rate 0.9% \u2192 2.0% (+1.1 pp, worse)",
    ]);
  });

  it("says No significant change when nothing is news: noise is never news", () => {
    const news = digestNews(team([moved("noisy", 100, 300, true), moved("flat", 100, 100)]));
    expect(news.lines).toEqual([]);
    expect(newsSummary(news)).toMatch(
      /^No significant change; run pass rate [\d.]+%.*, flaky rate /,
    );
  });

  it("reads a pass-rate alert as below its threshold", () => {
    const news = digestNews(
      team(
        [moved("flows", 10, 10)],
        [
          {
            ...ALERT,
            metricName: "run pass rate",
            direction: "below",
            value: 0.8,
            threshold: 0.9,
            severity: "warn",
          },
        ],
      ),
    );
    expect(
      newsSentence(
        news.shown[0] ?? {
          kind: "alert",
          projectId: null,
          name: "",
          what: "",
          short: "",
          tone: "bad",
        },
      ),
    ).toBe("flows run pass rate 80.0% \u2014 below warn 90%");
  });
});

describe("owners", () => {
  const report = team(
    [
      moved("flows", 30, 900),
      moved("better", 900, 100),
      unavailable("api", "Checkout API", "x"),
      moved("noisy", 100, 300, true),
    ],
    [ALERT],
  );
  const owners = {
    flows: ["U012ABCDEF", "S0GROUP1", "flows-lead@example.com"],
    better: ["U0BETTER", "better@example.com"],
    api: ["U012ABCDEF", "api@example.com"],
    noisy: ["U0NOISY", "noisy@example.com"],
  };

  it("are mentioned on a line of bad news in Slack, each once per message, never for improvements or noise", () => {
    const { main } = renderSlackDigest(report, { key: "k", owners });
    const text = JSON.stringify(main.blocks);
    expect(text.match(/<@U012ABCDEF>/g)).toHaveLength(1);
    expect(text.match(/<!subteam\^S0GROUP1>/g)).toHaveLength(1);
    expect(text).not.toContain("U0BETTER");
    expect(text).not.toContain("U0NOISY");
    expect(text).not.toContain("@example.com");
    const first = main.blocks[0] as unknown as { text: { text: string } };
    expect(first.text.text.split("\n")[0]).toBe(
      "\u{1F534} *flows* flaky rate 9.0% \u2014 above critical 6% <@U012ABCDEF> <!subteam^S0GROUP1>",
    );
  });

  it("are copied on the digest email for bad news only, addresses only", () => {
    const mail = renderDigestEmail(report, { key: "k", owners });
    expect(mail.cc).toEqual(["flows-lead@example.com", "api@example.com"]);
    expect(renderDigestEmail(report, { key: "k" }).cc).toEqual([]);
  });
});
