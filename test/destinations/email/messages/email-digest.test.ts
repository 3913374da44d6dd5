import { describe, expect, it } from "vitest";
import {
  digestSubject,
  renderDigestEmail,
} from "../../../../src/destinations/email/messages/email-digest.js";
import { COLOURS, escapeHtml } from "../../../../src/destinations/email/messages/email-html.js";
import { fitEmailToSize } from "../../../../src/destinations/email/messages/fit-email-to-size.js";
import type { Report } from "../../../../src/report/types.js";
import { checkoutReport, quietTotal } from "../../../render/report-fixture.js";
import {
  HOSTILE_NAME,
  HTML_NAME,
  sampleReport,
  syntheticReport,
} from "../../../render/workbook-fixture.js";

const KEY = "checkout.weekly.2026-11-09";
const report = sampleReport();
const email = renderDigestEmail(report, { key: KEY });

/** The HTML between the label's cell and the end of its table row. */
function rowOf(html: string, label: string): string {
  const start = html.indexOf(`>${label}</td>`);
  expect(start, label).toBeGreaterThan(-1);
  return html.slice(start, html.indexOf("</tr>", start));
}

describe("digestSubject", () => {
  it.each([
    [
      { start: "2026-11-15", end: "2026-11-15" },
      "daily",
      "[Checkout squad] daily test insights · Nov 15, 2026",
    ],
    [
      { start: "2026-11-16", end: "2026-11-16" },
      "daily",
      "[Checkout squad] daily test insights · Nov 16, 2026",
    ],
    [
      { start: "2026-11-09", end: "2026-11-15" },
      "weekly",
      "[Checkout squad] weekly test insights · Nov 9 – 15, 2026",
    ],
    [
      { start: "2026-12-29", end: "2027-01-04" },
      "weekly",
      "[Checkout squad] weekly test insights · Dec 29, 2026 – Jan 4, 2027",
    ],
  ])("names team, digest and the period %o", (current, digest, subject) => {
    // Then the verdict: the first line of news.
    expect(digestSubject({ ...report, digest, periods: { ...report.periods, current } })).toBe(
      `${subject} \u00b7 Web E2E flaky-rate 5.2% \u2014 above critical 5%`,
    );
  });

  it("ends with no significant change on a day without news", () => {
    const quiet = quietTotal(checkoutReport({ projects: [], alerts: [] }));
    expect(digestSubject(quiet)).toMatch(
      / \u00b7 Nov 9 \u2013 15, 2026 \u00b7 no significant change$/,
    );
  });

  it("keeps a title with line breaks on one header line", () => {
    const odd: Report = {
      ...report,
      team: { ...report.team, title: "Check\r\nBcc: x@evil.example" },
    };
    expect(digestSubject(odd)).not.toMatch(/[\r\n]/);
  });
});

describe("renderDigestEmail HTML", () => {
  it("is self-contained: inline styles only, no scripts, stylesheets, classes or images", () => {
    expect(email.html).toMatch(/^<!DOCTYPE html>/);
    for (const banned of [/<script/i, /<style/i, /<link/i, /<img/i, /\sclass=/i, /url\(/i]) {
      expect(email.html).not.toMatch(banned);
    }
  });

  it("escapes every name and message from the API or config", () => {
    expect(email.html).not.toContain("<script>alert(1)</script>");
    expect(email.html).toContain(escapeHtml(HTML_NAME));
    expect(email.html).toContain("Legacy &lt;API&gt;");
    expect(email.html).toContain(escapeHtml(HOSTILE_NAME));
    // The reason and its advice are the operator's (log, history), not the team's.
    expect(email.html).not.toContain("the insights API kept failing (503)");
  });

  it("colours headline deltas by direction: flaky up red, pass rate up green, noise grey with ≈", () => {
    expect(rowOf(email.html, "Flaky rate")).toContain(
      `<span style="color:${COLOURS.bad};">↑&nbsp;+2.4&nbsp;pp</span>`,
    );
    expect(rowOf(email.html, "Run pass rate")).toContain(
      `<span style="color:${COLOURS.good};">↑&nbsp;+8.5&nbsp;pp</span>`,
    );
    expect(rowOf(email.html, "Test pass rate")).toContain(
      `<span style="color:${COLOURS.neutral};">≈&nbsp;+0.1&nbsp;pp</span>`,
    );
  });

  it("shows the headline figures with their prior values", () => {
    const row = rowOf(email.html, "Runs");
    expect(row).toContain("<b>383</b>");
    expect(row).toContain("337");
  });

  it("opens with the news, before the title: alerts, projects not fetched, changes; the rest under What changed", () => {
    const body = email.html.slice(email.html.indexOf("<body"));
    const first = body.indexOf("<b>Web E2E</b> flaky-rate 5.2% — above critical 5%");
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThan(body.indexOf("Checkout squad — weekly test insights"));
    expect(body).toContain(
      "<b>Legacy &lt;API&gt;</b> (legacy1) could not be fetched — the team figures leave it out",
    );
    expect(body).toContain("<b>Web E2E</b>: flaky rate 2.0% → 4.6% (+2.6 pp, worse)");
    expect(body).toContain("… and 9 more under What changed below");
    expect(body).toContain("What changed (continued)");
    expect(body).toContain("<b>Web E2E</b>: run pass rate 84.6% → 95.5% (+10.9 pp, better)");
    expect(body).not.toContain("Biggest worsenings");
  });

  it("puts the news in the preheader, the inbox's preview line", () => {
    expect(email.html).toContain(
      '<div style="display:none;max-height:0;overflow:hidden;">Web E2E flaky-rate 5.2% — above critical 5%; Legacy &lt;API&gt; (legacy1) could not be fetched',
    );
  });

  it("lists prior-period notes", () => {
    expect(email.html).toContain("prior period not available: insights go back to 2026-08-25");
    expect(email.html).toContain("The team total leaves out Legacy &lt;API&gt; (unavailable).");
  });

  it("gives every available project a row, worst flaky rate first, linked to its dashboard", () => {
    const order = ["pdqmxlz", "mob77aa", "hyp4x1k", "perf000"].map((id) =>
      email.html.indexOf(`>${id}</span>`),
    );
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(email.html).toContain(
      '<a href="https://insights.example.com/projects/pdqmxlz?tab=insights&amp;x=&lt;y&gt;"',
    );
  });

  it("links nothing when the dashboard template is not http(s)", () => {
    const html = renderDigestEmail(
      { ...report, dashboardUrl: "javascript:alert('{project_id}')" },
      { key: KEY },
    ).html;
    expect(html).not.toContain("<a ");
    expect(html).not.toContain("javascript:");
  });

  it("names the delivery key and the period in the body", () => {
    expect(email.html).toContain(KEY);
    expect(email.html).toContain(
      "Nov 9 – 15, 2026 · Europe/Berlin · vs previous week (Nov 2 – 8, 2026)",
    );
  });

  it("lists the 50 worst of a large team, counts the rest, and stays under Gmail's clip", () => {
    const big = syntheticReport(80, 7, 5);
    for (const p of big.projects) p.name = `${p.name} `.padEnd(100, "x");
    const { html, text } = renderDigestEmail(
      { ...big, dashboardUrl: "https://insights.example.com/p/{project_id}" },
      { key: KEY },
    );
    expect(html.match(/<tr valign="top"/g)?.length).toBe(8); // the 8 headline figures
    expect(html.match(/>Run pass<\/span>/g)?.length).toBe(50); // a block per listed project
    expect(html).toContain("30 more projects are not listed here");
    expect(text).toContain("30 more projects are not listed here");
    expect(Buffer.byteLength(html)).toBeLessThan(102_000);
  });
});

describe("renderDigestEmail text", () => {
  it("carries the same content as plain text, names unescaped", () => {
    const { text } = email;
    expect(text.split("\n")[0]).toBe("! Web E2E flaky-rate 5.2% — above critical 5%");
    expect(text).toContain("\nCheckout squad — weekly test insights\n");
    expect(text).toMatch(/Run pass rate +94\.3% {2}↑ \+8\.5 pp {2}\(prior 85\.8%\)/);
    expect(text).toMatch(/Test pass rate +98\.9% {2}≈ \+0\.1 pp/);
    expect(text).toContain(`${HTML_NAME} (mob77aa)`);
    expect(text).toContain(`${HOSTILE_NAME} (hyp4x1k)`);
    expect(text).toContain(
      "! Legacy <API> (legacy1) could not be fetched — the team figures leave it out",
    );
    expect(text).toContain("  ✓ Web E2E: run pass rate 84.6% → 95.5% (+10.9 pp, better)");
    expect(text).toContain(KEY);
    for (const markup of ["<td", "<span", "<br", "&lt;", "&amp;", "&nbsp;"])
      expect(text).not.toContain(markup);
  });
});

describe("renderDigestEmail on a phone", () => {
  it("has no fixed width wider than a 390 px screen: the card is fluid and projects wrap", () => {
    const { html } = renderDigestEmail(sampleReport(), { key: KEY });
    const widths = [...html.matchAll(/(?<!max-)width[:=]"?(\d+)(px)?/g)].map((m) => Number(m[1]));
    expect(widths.filter((w) => w > 340)).toEqual([]);
    expect(html).toContain("max-width:680px");
  });

  it("says the workbook is attached and what it holds, in HTML and text", () => {
    const file = "insights-checkout-2026-11-09_2026-11-15.xlsx";
    const { html, text } = renderDigestEmail(sampleReport(), { key: KEY, workbook: file });
    for (const body of [html, text]) {
      expect(body).toContain(`Attached: ${file}`);
      expect(body).toContain("Summary (each project");
      expect(body).toContain("Daily (a row per project per day)");
    }
    expect(renderDigestEmail(sampleReport(), { key: KEY }).text).not.toContain("Attached:");
  });
});

describe("a mail over the size cap", () => {
  it("no longer says the workbook is attached once the cap drops it", async () => {
    const file = "insights-checkout-2026-11-09_2026-11-15.xlsx";
    const mail = renderDigestEmail(sampleReport(), { key: KEY, workbook: file });
    const sized = await fitEmailToSize(
      {
        ...mail,
        to: ["qa@example.com"],
        messageId: "<k@x>",
        attachments: [{ filename: file, content: Buffer.alloc(10), contentType: "x" }],
      },
      { maxBytes: 100, measure: async () => 10_000, hint: null },
    );
    expect(sized.message.html).not.toContain("Attached:");
    expect(sized.message.text).not.toContain("Attached:");
    expect(sized.message.text).toContain(`The workbook ${file}`);
  });
});
