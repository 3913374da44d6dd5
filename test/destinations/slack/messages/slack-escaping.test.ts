import { describe, expect, it } from "vitest";
import {
  escapeMrkdwn,
  mrkdwnLink,
  plainName,
} from "../../../../src/destinations/slack/messages/escape-mrkdwn.js";
import { renderSlackDigest } from "../../../../src/destinations/slack/messages/slack-digest.js";
import type { SlackMessage } from "../../../../src/messages.js";
import { checkoutReport, LOOKBACK_NOTE } from "../../../render/report-fixture.js";
import { headerText, mrkdwnTexts, tableRows } from "./slack-blocks.js";

const OUR_LINK = /<https:\/\/[^|<>]+\|[^<>]*>/g;

/** A report where everything from the API or config tries to ping, link or inject markup. */
function hostileReport() {
  const report = checkoutReport({
    team: { name: "checkout", title: "<!here> Checkout & co", timezone: "Europe/Berlin" },
    digest: "daily <!channel>",
    alerts: [
      {
        alert: "<!subteam^S1>",
        severity: "critical",
        value: 0.06,
        threshold: 0.05,
        projectId: "evil&id",
      },
    ],
  });
  report.projects = report.projects.map((p) =>
    p.status === "ok" && p.projectId === "pay-01"
      ? { ...p, priorNote: `${LOOKBACK_NOTE} <!everyone>` }
      : p,
  );
  return report;
}

/** Every text Slack parses as mrkdwn: the fallback and each mrkdwn object, main and thread. */
function parsedTexts(messages: SlackMessage[]): string[] {
  return messages.flatMap((m) => [m.text, ...mrkdwnTexts(m)]);
}

describe("escaping for mrkdwn", () => {
  it.each([
    ["<!channel>", "&lt;!channel&gt;"],
    ["*bold*<@U123>", "\u2217bold\u2217&lt;@U123&gt;"],
    ["a & b", "a &amp; b"],
    ["&lt; already", "&amp;lt; already"],
  ])("escapes %s", (raw, escaped) => {
    expect(escapeMrkdwn(raw)).toBe(escaped);
  });

  it("keeps a link's URL and label from ending the link early", () => {
    expect(mrkdwnLink("https://x.test/a?b=1&c=|2", "<@U1>")).toBe(
      "<https://x.test/a?b=1&amp;c=%7C2|&lt;@U1&gt;>",
    );
  });

  it.each([
    ["https://evil.test/x", "https:\u2060//evil.\u2060test/x"],
    ["www.evil.io", "www.\u2060evil.\u2060io"],
    ["ops@evil.co", "ops@evil.\u2060co"],
    ["Checkout.com web", "Checkout.\u2060com web"],
  ])("keeps Slack from linking the name %s, with an invisible word joiner", (raw, defused) => {
    expect(escapeMrkdwn(raw)).toBe(defused);
    expect(plainName(raw)).toBe(defused);
  });

  it.each([
    ["*bold*", "\u2217bold\u2217"],
    ["_italic_", "\u02cditalic\u02cd"],
    ["~struck~", "\u223cstruck\u223c"],
    ["`code`", "\u02cbcode\u02cb"],
    ["a *b* c", "a \u2217b\u2217 c"],
  ])("keeps the formatting marks of %s from formatting", (raw, shown) => {
    expect(escapeMrkdwn(raw)).toBe(shown);
  });

  it.each(["checkout_api_v2", "flaky rate 2.5% \u2014 above critical 5%", "v1.2.3", "a*b"])(
    "leaves %s as typed: nothing there can format or link",
    (text) => {
      expect(escapeMrkdwn(text)).toBe(text);
    },
  );

  it("lets no name, branch, title, alert or note from the API or config ping anyone", () => {
    const post = renderSlackDigest(hostileReport(), { key: "k" });
    const texts = parsedTexts([post.main, ...post.thread]);
    const joined = texts.join("\n");
    for (const ping of ["<!channel>", "<!here>", "<!everyone>", "<@U123>", "<!subteam^S1>"]) {
      expect(joined).not.toContain(ping);
    }
    expect(joined).toContain("&lt;!channel&gt;");
    expect(joined).toContain("\u2217bold\u2217&lt;@U123&gt;");
    expect(joined).toContain("&lt;!here&gt; Checkout &amp; co");
    for (const text of texts) {
      const outsideLinks = text.replace(OUR_LINK, "");
      expect(outsideLinks).not.toMatch(/[<>]/);
      expect(outsideLinks).not.toMatch(/&(?!amp;|lt;|gt;)/);
    }
  });

  it("shows names as typed where Slack does not parse markup (header, table cells) and escaped in links", () => {
    const { main } = renderSlackDigest(hostileReport(), { key: "k" });
    expect(headerText(main)).toBe(
      "<!here> Checkout & co \u00b7 daily <!channel> \u00b7 Nov 9 \u2013 15, 2026",
    );
    expect(tableRows(main).map((r) => r[0])).toContain("*bold*<@U123>");
    expect(mrkdwnTexts(main).join("\n")).toContain("|\u2217bold\u2217&lt;@U123&gt;>");
    expect(JSON.stringify(main.blocks)).not.toContain("&amp;lt;");
  });

  it("keeps Slack from linking a URL or domain name in the header and the table, where names are plain text", () => {
    const report = checkoutReport({
      team: { name: "checkout", title: "evil.com https://x.io", timezone: "Europe/Berlin" },
    });
    report.projects = report.projects.map((p) =>
      p.status === "ok" && p.projectId === "pay-01" ? { ...p, name: "www.pay.io" } : p,
    );
    const { main } = renderSlackDigest(report, { key: "k" });
    expect(headerText(main)).toMatch(/^evil\.\u2060com https:\u2060\/\/x\.\u2060io \u00b7/);
    expect(tableRows(main).map((r) => r[0])).toContain("www.\u2060pay.\u2060io");
  });
});
