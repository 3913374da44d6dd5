import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../src/insights/emulator/start-emulator.js";
import { checkMessage } from "../fake-slack/check-message.js";
import { cell, loadWorkbook, records, sheet } from "../render/workbook-read.js";
import { API_KEY, apiEnv, apiSection, IDS, TODAY, tempDir, writeConfig } from "./e2e-setup.js";
import { countRuns, flakyRate, percent, pool, runPassRate, runsIn } from "./raw-figures.js";
import { requireBuiltCli, runCli } from "./run-cli.js";

/**
 * `run --outbox DIR`: what would be sent, as files in the formats PRODUCT.md gives, with no
 * Slack or SMTP credentials at all; and a 150-project team that still makes a valid message.
 */

interface OutboxSlack {
  channel: string;
  text: string;
  blocks: unknown[];
  metadata: { event_type: string; event_payload: Record<string, string> };
  thread?: { text: string; blocks: unknown[] }[];
}

let dirs: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  requireBuiltCli();
  dirs = await tempDir();
});
afterAll(async () => {
  await dirs.remove();
});

async function readSlackJson(path: string): Promise<OutboxSlack> {
  return JSON.parse(await readFile(path, "utf8")) as OutboxSlack;
}

describe("run --outbox", () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ today: TODAY, key: API_KEY });
  });
  afterAll(async () => {
    await emulator.close();
  });

  it("writes <key>.slack.json, <key>.eml and the workbook instead of sending, with no Slack or SMTP credentials", async () => {
    const path = await writeConfig(
      dirs.dir,
      {
        api: apiSection(),
        email: { from: "Test insights <insights@example.com>" },
        teams: [
          {
            name: "checkout",
            title: "Checkout squad",
            timezone: "Europe/Berlin",
            projects: [{ id: IDS.webE2e }, { id: IDS.checkoutApi, tags: ["smoke"] }],
            digests: [
              {
                name: "weekly",
                schedule: "0 8 * * 1",
                period: "previous_week",
                // The files of the text digest alone; charts are the chart tests'.
                charts: false,
                slack: { channel: "C0123ABCD", attach_xlsx: true },
                email: { to: ["qa-leads@example.com"], attach_xlsx: true },
              },
            ],
          },
        ],
      },
      "outbox.yaml",
    );
    const out = join(dirs.dir, "outbox");
    // Monday 08:00 in Berlin: the week of Nov 9 – 15.
    const result = await runCli(
      ["run", "--team", "checkout", "--digest", "weekly", "--at", "2026-11-16T07:00:00Z"].concat([
        "--outbox",
        out,
        "--config",
        path,
      ]),
      { env: apiEnv(emulator.url), cwd: dirs.dir },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("\u2713 slack:C0123ABCD written to the outbox");
    expect(result.stdout).not.toMatch(/ sent$/m);
    const key = "checkout.weekly.2026-11-09_2026-11-15";
    const xlsx = "insights-checkout-2026-11-09_2026-11-15.xlsx";
    expect((await readdir(out)).sort()).toEqual([`${key}.eml`, `${key}.slack.json`, xlsx].sort());
    // The workbook goes to Slack and to the mail: one file, listed once.
    for (const file of [`${key}.slack.json`, `${key}.eml`, xlsx]) {
      expect(result.stdout.split(`wrote ${join(out, file)}\n`)).toHaveLength(2);
    }
    // In the names' order, the same on every run: not in whichever order the writes finished.
    const wrote = result.stdout.split("\n").filter((line) => line.startsWith("  wrote "));
    expect(wrote).toEqual(
      [`${key}.eml`, `${key}.slack.json`, xlsx].map((f) => `  wrote ${join(out, f)}`),
    );

    const period = { start: "2026-11-09", end: "2026-11-15" };
    const runsOf = (id: string) => emulator.projects.find((p) => p.id === id)?.runs ?? [];
    const team = pool([
      countRuns(runsIn(runsOf(IDS.webE2e), period, "Europe/Berlin")),
      countRuns(runsIn(runsOf(IDS.checkoutApi), period, "Europe/Berlin", { tags: ["smoke"] })),
    ]);

    const slack = await readSlackJson(join(out, `${key}.slack.json`));
    // Both projects fit in the message: no thread repeats them (PRODUCT.md's `thread?`).
    expect(Object.keys(slack).sort()).toEqual(["blocks", "channel", "metadata", "text"]);
    expect(slack.channel).toBe("C0123ABCD");
    expect(slack.metadata).toEqual({
      event_type: "insights_digest",
      event_payload: {
        key,
        team: "checkout",
        digest: "weekly",
        period_start: period.start,
        period_end: period.end,
      },
    });
    expect(slack.text).toContain(`run pass rate ${percent(runPassRate(team))}`);
    expect(slack.text).toContain(`flaky rate ${percent(flakyRate(team))}`);
    expect(checkMessage(slack.text, slack.blocks)).toBeNull();
    expect(slack.thread).toBeUndefined();

    const mail = await simpleParser(await readFile(join(out, `${key}.eml`)));
    // The subject ends with the digest's verdict: its first news line.
    expect(mail.subject).toBe(
      "[Checkout squad] weekly test insights \u00b7 Nov 9 \u2013 15, 2026 \u00b7 Web E2E failed tests 209 \u2192 34",
    );
    expect(mail.messageId).toBe(`<${key}@insights-reporter>`);
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.text : "").toBe("qa-leads@example.com");
    expect(mail.html).toContain(percent(runPassRate(team)));
    expect(mail.html).not.toMatch(/<script/i);
    expect(mail.text).toContain(percent(flakyRate(team)));
    expect(mail.attachments.map((a) => a.filename)).toEqual([xlsx]);
    const onDisk = await readFile(join(out, xlsx));
    expect(mail.attachments[0]?.content.equals(onDisk)).toBe(true);

    const book = await loadWorkbook(onDisk);
    const totalOf = (name: string) =>
      records(sheet(book, name)).find((r) => cell(r, "Project").value === "Total") ?? new Map();
    expect(cell(totalOf("Summary"), "Runs").value).toBe(team.runs);
    expect(cell(totalOf("Tests"), "Tests").value).toBe(team.tests);
  });
});

describe("a team of 150 projects, through run --outbox", () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ today: TODAY, key: API_KEY, projects: 150 });
  });
  afterAll(async () => {
    await emulator.close();
  });

  it("makes a message Slack accepts (≤ 50 blocks) and puts every project in the thread", async () => {
    const ids = emulator.projects.map((p) => p.id);
    const path = await writeConfig(
      dirs.dir,
      {
        api: apiSection({ concurrency: 8 }),
        teams: [
          {
            name: "everyone",
            title: "All projects",
            timezone: "Europe/Berlin",
            projects: ids.map((id) => ({ id })),
            digests: [
              {
                name: "daily",
                schedule: "0 9 * * 1-5",
                period: "previous_day",
                slack: { channel: "C0123ABCD" },
              },
            ],
          },
        ],
      },
      "big.yaml",
    );
    const out = join(dirs.dir, "big");
    const result = await runCli(
      ["run", "--team", "everyone", "--digest", "daily", "--at", "2026-11-18T08:00:00Z"].concat([
        "--outbox",
        out,
        "--config",
        path,
      ]),
      { env: apiEnv(emulator.url), cwd: dirs.dir, timeoutMs: 60_000 },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("everyone.daily.2026-11-17: 150 projects");

    const slack = await readSlackJson(join(out, "everyone.daily.2026-11-17.slack.json"));
    expect(slack.blocks.length).toBeLessThanOrEqual(50);
    expect(checkMessage(slack.text, slack.blocks)).toBeNull();
    expect(JSON.stringify(slack.blocks)).toMatch(/\+140 more projects in the thread/);

    const thread = slack.thread ?? [];
    expect(thread.length).toBeGreaterThanOrEqual(1);
    for (const reply of thread) expect(checkMessage(reply.text, reply.blocks)).toBeNull();
    const threadJson = JSON.stringify(thread);
    for (const id of ids) {
      expect(threadJson.split(`\`${id}\``).length - 1, `${id} in the thread once`).toBe(1);
    }
  });
});
