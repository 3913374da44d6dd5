import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { FAKE_SLACK_TOKEN } from "../fake-slack/fake-slack-server.js";
import { cell, loadWorkbook, records, sheet } from "../render/workbook-read.js";
import { unwrapLines } from "../support/unwrap-lines.js";
import {
  type RunFixture,
  rawTeam,
  SMTP_PASS,
  SMTP_USER,
  startRunFixture,
} from "./cli-run-fixture.js";
import { API_KEY, IDS } from "./e2e-setup.js";
import { flakyRate, meanDurationMs, percent, runPassRate } from "./raw-figures.js";

/**
 * `insights-reporter run` as a user runs it: the built CLI in its own process, a config file,
 * the environment for credentials, against the emulator, a fake Slack and a real SMTP server.
 */

let f: RunFixture;
beforeAll(async () => {
  f = await startRunFixture();
});
afterAll(async () => {
  await f.close();
});
afterEach(() => {
  f.reset();
});

describe("run, posting to Slack", () => {
  it("posts one message with the key's metadata and the raw data's headline, every project in it, and the workbook in the thread", async () => {
    const path = await f.config([
      { name: "daily", slack: { channel: "C0123ABCD", attach_xlsx: true } },
    ]);
    const result = await f.run(path, "daily");
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("checkout.daily.2026-11-17: 3 projects");
    expect(result.stdout).toContain("\u2713 slack:C0123ABCD sent");

    const main = f.slack.posts.filter((p) => p.thread_ts === null);
    expect(main).toHaveLength(1);
    const post = main[0];
    if (!post) throw new Error("no post");
    expect(post.channel).toBe("C0123ABCD");
    expect(post.metadata).toEqual({
      event_type: "insights_digest",
      event_payload: {
        key: "checkout.daily.2026-11-17",
        team: "checkout",
        digest: "daily",
        period_start: "2026-11-17",
        period_end: "2026-11-17",
      },
    });
    const { team, perProject } = rawTeam(f.emulator);
    expect(team.runs).toBeGreaterThan(20);
    expect(post.text).toContain("Checkout squad");
    expect(post.text).toContain("Nov 17, 2026");
    expect(post.text).toContain(`run pass rate ${percent(runPassRate(team))}`);
    expect(post.text).toContain(`flaky rate ${percent(flakyRate(team))}`);

    // Three projects fit in the message: its table has them all, and no reply repeats them.
    expect(f.slack.posts.filter((p) => p.thread_ts === post.ts)).toEqual([]);
    const message = JSON.stringify(post.blocks);
    for (const name of ["Web E2E", "Checkout API", "Billing"]) expect(message).toContain(name);

    expect(f.slack.uploads).toHaveLength(1);
    const upload = f.slack.uploads[0];
    expect(upload?.thread_ts).toBe(post.ts);
    expect(upload?.filename).toBe("insights-checkout-2026-11-17_2026-11-17.xlsx");
    const book = await loadWorkbook(upload?.bytes ?? Buffer.alloc(0));
    const rows = records(sheet(book, "Summary"));
    const total = rows.find((r) => cell(r, "Project").value === "Total");
    expect(cell(total ?? new Map(), "Runs").value).toBe(team.runs);
    expect(cell(total ?? new Map(), "Run pass rate").value).toBeCloseTo(
      runPassRate(team) ?? -1,
      12,
    );
    expect(cell(total ?? new Map(), "Flaky rate").value).toBeCloseTo(flakyRate(team) ?? -1, 12);
    // Runs has the project ids; Tests the same rows in the same order.
    const runs = records(sheet(book, "Runs"));
    const at = runs.findIndex((r) => cell(r, "Project ID").value === IDS.webE2e);
    const web = runs[at] ?? new Map();
    expect(cell(web, "Runs").value).toBe(perProject[0]?.runs);
    const tests = records(sheet(book, "Tests"))[at] ?? new Map();
    expect(cell(tests, "Tests flaky").value).toBe(perProject[0]?.testsFlaky);
    // A duration is a time: exceljs reads it back as a Date counted from 1899-12-30.
    const duration = cell(web, "Mean run duration").value as Date;
    expect(duration.getTime() - Date.UTC(1899, 11, 30)).toBeCloseTo(
      meanDurationMs(perProject[0] ?? team) ?? 0,
      -1,
    );
  });

  it("does not post a slot twice: a second run says the ledger has it", async () => {
    const path = await f.config([{ name: "daily", slack: { channel: "C0123ABCD" } }]);
    expect((await f.run(path, "daily")).code).toBe(0);
    const again = await f.run(path, "daily");
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/already delivered/);
    expect(f.slack.posts.filter((p) => p.thread_ts === null)).toHaveLength(1);
  });
});

describe("run, sending email", () => {
  it("sends one message with the period in the subject, a Message-ID from the key, and the workbook attached", async () => {
    const path = await f.config([
      { name: "mail", email: { to: ["qa-leads@example.com"], attach_xlsx: true } },
    ]);
    const result = await f.run(path, "mail");
    expect(result.code, result.stderr).toBe(0);
    expect(f.smtp.messages).toHaveLength(1);
    const mail = f.smtp.messages[0];
    if (!mail) throw new Error("no mail");
    expect(mail.user).toBe(SMTP_USER);
    expect(mail.envelope.to).toEqual(["qa-leads@example.com"]);
    const { parsed } = mail;
    expect(parsed.subject).toContain("Checkout squad");
    expect(parsed.subject).toContain("mail");
    expect(parsed.subject).toContain("Nov 17, 2026");
    expect(parsed.messageId).toBe("<checkout.mail.2026-11-17@insights-reporter>");
    expect(parsed.from?.text).toContain("insights@example.com");

    const { team } = rawTeam(f.emulator);
    expect(parsed.html).toContain(percent(runPassRate(team)));
    expect(parsed.text).toContain(percent(flakyRate(team)));

    expect(parsed.attachments).toHaveLength(1);
    const attachment = parsed.attachments[0];
    expect(attachment?.filename).toBe("insights-checkout-2026-11-17_2026-11-17.xlsx");
    const book = await loadWorkbook(attachment?.content ?? Buffer.alloc(0));
    const total = records(sheet(book, "Summary")).find((r) => cell(r, "Project").value === "Total");
    expect(cell(total ?? new Map(), "Runs").value).toBe(team.runs);
    const tests = records(sheet(book, "Tests")).find((r) => cell(r, "Project").value === "Total");
    expect(cell(tests ?? new Map(), "Tests flaky").value).toBe(team.testsFlaky);
    expect(cell(total ?? new Map(), "Flaky rate").value).toBeCloseTo(flakyRate(team) ?? -1, 12);
  });
});

describe("run, when part of it goes wrong", () => {
  it("waits out Slack's rate limit and posts once", async () => {
    const path = await f.config([{ name: "daily", slack: { channel: "C0123ABCD" } }]);
    f.slack.failNext("chat.postMessage", "ratelimited", { retryAfter: 1 });
    const result = await f.run(path, "daily");
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(f.slack.posts.filter((p) => p.thread_ts === null)).toHaveLength(1);
  });

  it("mails the recipients the server accepts and says which one it refused", async () => {
    const path = await f.config([
      { name: "mail", email: { to: ["qa-leads@example.com", "gone@example.com"] } },
    ]);
    f.smtp.refuseRecipient("gone@example.com");
    const result = await f.run(path, "mail");
    expect(f.smtp.messages).toHaveLength(1);
    expect(f.smtp.messages[0]?.envelope.to).toEqual(["qa-leads@example.com"]);
    expect(result.code).toBe(0);
    expect(unwrapLines(result.stdout)).toMatch(
      /email:qa-leads@example\.com,gone@example\.com sent, but: .*gone@example\.com/,
    );
  });

  it("still posts when a project is unknown to the API, says which one was left out, and exits 1", async () => {
    const path = await f.config(
      [{ name: "daily", slack: { channel: "C0123ABCD" } }],
      [{ id: "zzghost", name: "Ghost" }],
    );
    const result = await f.run(path, "daily");
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toContain("checkout.daily.2026-11-17: 4 projects");
    expect(result.stdout).toMatch(
      /! Ghost \(zzghost\) left out, unavailable: project "zzghost" was not found/,
    );
    const main = f.slack.posts.filter((p) => p.thread_ts === null);
    expect(main).toHaveLength(1);
    // The headline is the other three projects' pooled figures.
    expect(main[0]?.text).toContain(`flaky rate ${percent(flakyRate(rawTeam(f.emulator).team))}`);
    // The channel names it without the fix; `history` keeps the operator's advice.
    expect(JSON.stringify(main[0]?.blocks)).not.toContain("insights-reporter projects");
    const history = await f.cli(["history", "--team", "checkout", "--config", path], f.env());
    expect(history.code, history.stderr).toBe(0);
    // The note goes under its destination's line, broken to the terminal's width.
    expect(history.stdout.replace(/\s+/g, " ")).toMatch(
      /slack:C0123ABCD sent 1 try note: left out Ghost \(zzghost\): project "zzghost" was not found .*insights-reporter projects/,
    );
  });
});
describe("secrets", () => {
  it("never print the API key, the Slack token or the SMTP password, whatever happened", () => {
    expect(f.outputs.length).toBeGreaterThanOrEqual(12);
    const all = f.outputs.join("\n");
    expect(all).not.toContain(API_KEY);
    expect(all).not.toContain(FAKE_SLACK_TOKEN);
    expect(all).not.toContain(SMTP_PASS);
  });
});
