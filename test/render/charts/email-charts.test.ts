import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { simpleParser } from "mailparser";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createOutboxFiles } from "../../../src/deliver/outbox.js";
import { messageIdForKey } from "../../../src/destinations/email/email-message-id.js";
import { emailOutbox } from "../../../src/destinations/email/email-outbox.js";
import { createSmtpDestination } from "../../../src/destinations/email/email-smtp.js";
import { emailCharts } from "../../../src/destinations/email/messages/email-charts.js";
import { renderDigestEmail } from "../../../src/destinations/email/messages/email-digest.js";
import { fitEmailToSize } from "../../../src/destinations/email/messages/fit-email-to-size.js";
import type { EmailMessage } from "../../../src/messages.js";
import { trendCharts } from "../../../src/render/charts/trend-chart.js";
import { Secret } from "../../../src/secret.js";
import { startSmtpServer, type TestSmtpServer } from "../../smtp/start-smtp-server.js";
import { checkoutReport } from "../report-fixture.js";
import { chartInput } from "./chart-fixture.js";
import { pngSize } from "./png-pixels.js";

// The charts travel inside the mail as `cid:` parts: a real SMTP server receives the message
// and mailparser reads it back, so what is checked is what a mail client gets.

const KEY = "checkout.weekly.2026-11-09";
let server: TestSmtpServer;

beforeEach(async () => {
  server = await startSmtpServer();
});
afterEach(async () => {
  await server.close();
});

async function chartMail(): Promise<EmailMessage> {
  const drawer = trendCharts();
  const charts = [
    await drawer.draw(chartInput("flakyRate"), "team-flaky-rate"),
    await drawer.draw(chartInput("runPassRate"), "team-run-pass-rate"),
  ];
  const { images, attachments } = emailCharts(charts);
  return {
    ...renderDigestEmail(checkoutReport(), { key: KEY, charts: images }),
    to: ["qa@example.com"],
    messageId: messageIdForKey(KEY),
    attachments: [
      ...attachments,
      { filename: "book.xlsx", content: Buffer.alloc(50_000, 1), contentType: "text/plain" },
    ],
  };
}

describe("a digest mail with charts", () => {
  it("references every cid part it carries, and carries every image it references", async () => {
    const d = createSmtpDestination({
      smtpUrl: new Secret(server.url()),
      from: "insights@example.com",
      maxBytes: 10_000_000,
      transportOptions: { ignoreTLS: true, secure: false },
      logger: pino({ level: "silent" }),
    });
    try {
      await d.send(await chartMail());
    } finally {
      d.close();
    }
    const [mail] = server.messages;
    // mailparser swaps cid: links for data: URLs unless told to keep them.
    const parsed = mail && (await simpleParser(mail.raw, { keepCidLinks: true }));
    const html = String(parsed?.html);
    const inline = (parsed?.attachments ?? []).filter((a) => a.contentId);
    expect(inline.map((a) => a.cid).sort()).toEqual([
      "team-flaky-rate@insights-reporter",
      "team-run-pass-rate@insights-reporter",
    ]);
    for (const part of inline) {
      expect(html.includes(`src="cid:${part.cid}"`)).toBe(true);
      expect(part.contentType).toBe("image/png");
      expect(pngSize(part.content)).toEqual({ width: 1200, height: 520 });
    }
    const referenced = [...html.matchAll(/src="cid:([^"]+)"/g)].map((m) => m[1]);
    expect(referenced.sort()).toEqual(inline.map((a) => a.cid).sort());
    // The workbook stays a download, not an inline part.
    expect(parsed?.attachments.find((a) => a.filename === "book.xlsx")?.contentId).toBeUndefined();
  });

  it("fits a phone and says in words what each image shows, in its alt text and the text part", async () => {
    const message = await chartMail();
    // As wide as the card's content (600 CSS px, drawn at 2×), and shrinking with a 390 px
    // phone's screen: width 100% of its cell, at most its own width, its height following.
    const images = [...message.html.matchAll(/<img [^>]*width="(\d+)"[^>]*style="([^"]*)"/g)];
    expect(images).toHaveLength(2);
    for (const [, width, style] of images) {
      expect(Number(width)).toBe(600);
      expect(style).toContain("width:100%;max-width:600px;height:auto");
    }
    expect(message.html).toMatch(
      /alt="Flaky rate · Checkout \(team\) by day, Sep 21 – Nov 15, 2026;/,
    );
    expect(message.text).toContain(
      "Trends\n  Flaky rate · Checkout (team) by day, Sep 21 – Nov 15, 2026;",
    );
    expect(message.text).toContain("  Run pass rate · Checkout (team) by day");
  });

  it("keeps its charts when the size cap leaves the workbook out", async () => {
    const message = await chartMail();
    const sized = await fitEmailToSize(message, {
      maxBytes: 10_000,
      measure: async () => 200_000,
      hint: null,
    });
    expect(sized.dropped.map((a) => a.filename)).toEqual(["book.xlsx"]);
    expect(sized.message.attachments.map((a) => a.cid)).toEqual([
      "team-flaky-rate@insights-reporter",
      "team-run-pass-rate@insights-reporter",
    ]);
    expect(sized.message.html).toContain('src="cid:team-flaky-rate@insights-reporter"');
  });
});

describe("a digest mail with charts in the outbox", () => {
  it("is one .eml holding the charts, and only the files to download beside it", async () => {
    const dir = await mkdtemp(join(tmpdir(), "outbox-charts-"));
    try {
      const outbox = emailOutbox(createOutboxFiles(dir), {
        smtpUrl: null,
        from: "insights@example.com",
        maxBytes: 10_000_000,
      });
      await outbox.send(await chartMail());
      expect((await readdir(dir)).sort()).toEqual(["book.xlsx", `${KEY}.eml`]);
      const parsed = await simpleParser(await readFile(join(dir, `${KEY}.eml`)), {
        keepCidLinks: true,
      });
      expect(parsed.attachments.filter((a) => a.contentId).map((a) => a.filename)).toEqual([
        "team-flaky-rate.png",
        "team-run-pass-rate.png",
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
