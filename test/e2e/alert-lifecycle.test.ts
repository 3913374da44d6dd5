import { readdirSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openLedger } from "../../src/state/sqlite/open-ledger.js";
import { runCli } from "../daemon/daemon-process.js";
import { type AlertSetup, CHANNEL, MENTION, startAlertSetup } from "./alert-fixture.js";

// One alert's life over the real local servers, one `alerts` process per day (each a fresh
// start): calm, fire, escalate, de-escalate, resolve — asserted on the Slack wire and in the
// SMTP server's inbox.

const OWNER = "U0DESIGNLEAD";
const OWNER_MAIL = "design-lead@example.com";

let setup: AlertSetup;
beforeAll(async () => {
  setup = await startAlertSetup({
    today: "2026-11-23",
    schedule: "0 9 * * *",
    owners: [OWNER, OWNER_MAIL],
  });
});
afterAll(() => setup?.close());

async function evaluate(day: string): Promise<{ code: number | null; out: string }> {
  const cli = runCli(
    [
      "alerts",
      "--team",
      "design",
      "--alert",
      "flaky-rate",
      "--at",
      `${day}T08:00:00Z`,
      "--config",
      setup.configPath,
    ],
    setup.env,
  );
  const out: string[] = [];
  cli.child.stdout?.on("data", (chunk: Buffer) => out.push(chunk.toString()));
  const { code } = await cli.exit;
  return { code, out: out.join("") };
}

const calls = (method: string) => setup.slack.calls.filter((c) => c.method === method);

describe("an alert's life on the wire", () => {
  it("sends nothing while calm", async () => {
    expect((await evaluate("2026-11-18")).code).toBe(0); // window Nov 17: 1.0%
    expect(setup.slack.posts).toHaveLength(0);
    expect(setup.smtp.messages).toHaveLength(0);
  });

  it("fires as one new post, with the mention, and a mail", async () => {
    const { code, out } = await evaluate("2026-11-19"); // window Nov 18: 4.2%
    expect(code, out).toBe(0);
    expect(setup.slack.posts).toHaveLength(1);
    const [post] = setup.slack.posts;
    expect(post?.thread_ts).toBeNull();
    expect(post?.text).toContain(MENTION);
    expect(post?.text).toMatch(/: Design system flaky rate 4\.\d% \u2014 above warn 3%$/);
    expect(post?.metadata).toMatchObject({
      event_type: "insights_alert",
      event_payload: {
        key: "design.alert.flaky-rate.2026-11-18",
        transitions: [expect.objectContaining({ from: "ok", to: "warn" })],
      },
    });
    expect(setup.smtp.messages).toHaveLength(1);
    expect(setup.smtp.messages[0]?.parsed.subject).toContain("[warn] Design system team");
    // The project's owner is pinged on its line and copied on the mail.
    expect(JSON.stringify(post?.blocks)).toContain(`<@${OWNER}>`);
    expect(setup.smtp.messages[0]?.parsed.cc).toMatchObject({ text: OWNER_MAIL });
    expect(setup.smtp.messages[0]?.envelope.to).toContain(OWNER_MAIL);
  });

  it("never announces again an evaluation that was made (a restart, a second run)", async () => {
    const { out } = await evaluate("2026-11-19");
    expect(out).toContain("evaluated before");
    expect(setup.slack.posts).toHaveLength(1);
    expect(setup.smtp.messages).toHaveLength(1);
  });

  it("escalates in the fire's thread, with the mention, and edits the first message", async () => {
    await evaluate("2026-11-20"); // window Nov 19: 7.5%
    const [first, reply] = setup.slack.posts;
    expect(setup.slack.posts).toHaveLength(2);
    expect(reply?.thread_ts).toBe(first?.ts);
    expect(reply?.text).toContain(MENTION);
    expect(JSON.stringify(reply?.blocks)).toContain(`<@${OWNER}>`);
    expect(setup.smtp.messages[1]?.envelope.to).toContain(OWNER_MAIL);
    expect(reply?.text).toMatch(/Design system flaky rate 7\.\d% \u2014 above critical 5%/);
    // An edit notifies no one: the escalation is also shown in the channel.
    expect(reply?.reply_broadcast).toBe(true);
    expect(calls("chat.update").map((c) => c.params.ts)).toEqual([first?.ts]);
    expect(first?.text).toContain("Still firing (critical)");
  });

  it("de-escalates and resolves in the thread without pinging anyone; the first message turns green", async () => {
    await evaluate("2026-11-21"); // window Nov 20: 4.0%
    await evaluate("2026-11-22"); // window Nov 21: 0.9%
    const [first, ...replies] = setup.slack.posts;
    expect(replies.map((r) => r.thread_ts)).toEqual([first?.ts, first?.ts, first?.ts]);
    expect(replies[1]?.text).toContain("back under critical 5%, still above warn 3%");
    expect(replies[1]?.reply_broadcast).toBeUndefined();
    expect(replies[2]?.text).toMatch(
      /Design system flaky rate back under 2\.5% \u2014 resolved after 3 days \(peak 7\.\d% on Nov 19\)$/,
    );
    for (const reply of replies.slice(1)) {
      expect(reply.text).not.toContain(MENTION);
      expect(JSON.stringify(reply.blocks)).not.toContain(`<@${OWNER}>`);
    }
    for (const mail of setup.smtp.messages.slice(2)) {
      expect(mail.envelope.to).not.toContain(OWNER_MAIL);
      expect(mail.parsed.cc).toBeUndefined();
    }
    expect(first?.text).toBe("Resolved: Design system team · flaky-rate");
    expect(JSON.stringify(first?.blocks)).toMatch(
      /resolved after 3 days \(peak 7\.\d% on Nov 19\) \u00b7 fired Nov 18, resolved Nov 21/,
    );
    expect(first?.edits).toBe(3);
    expect(setup.smtp.messages.map((m) => m.parsed.subject?.split(" ")[0])).toEqual([
      "[warn]",
      "[critical]",
      "[warn]",
      "[resolved]",
    ]);
    // One incident, one thread in the inbox: every later mail follows the fire's.
    const [fire, ...later] = setup.smtp.messages.map((m) => m.parsed);
    expect(fire?.inReplyTo).toBeUndefined();
    for (const mail of later) {
      expect(mail.inReplyTo).toBe(fire?.messageId);
      expect(mail.references).toBe(fire?.messageId);
      const key = /^<(.+)@insights-reporter>$/.exec(mail.messageId ?? "")?.[1];
      expect(mail.text).toContain(`Sent by insights-reporter \u00b7 ${key}`);
    }
    expect(calls("chat.postMessage").every((c) => c.params.channel === CHANNEL)).toBe(true);
  });

  it("keeps every evaluation as an alert slot in the ledger, each destination's delivery with it", async () => {
    const ledger = openLedger(setup.ledgerPath);
    const rows = await ledger.history({ team: "design", limit: 10 });
    await ledger.close();
    expect(rows.map((r) => [r.key, r.kind, r.deliveries.map((d) => d.state).join(",")])).toEqual([
      ["design.alert.flaky-rate.2026-11-21", "alert", "sent,sent"],
      ["design.alert.flaky-rate.2026-11-20", "alert", "sent,sent"],
      ["design.alert.flaky-rate.2026-11-19", "alert", "sent,sent"],
      ["design.alert.flaky-rate.2026-11-18", "alert", "sent,sent"],
      ["design.alert.flaky-rate.2026-11-17", "alert", ""],
    ]);
  });
});

describe("when the fire's first message was deleted", () => {
  let gone: AlertSetup;
  beforeAll(async () => {
    gone = await startAlertSetup({ today: "2026-11-23", schedule: "0 9 * * *" });
  });
  afterAll(() => gone?.close());

  it("the escalation goes out as a new post instead of a reply to nothing", async () => {
    const run = async (day: string) => {
      const cli = runCli(
        [
          "alerts",
          "--team",
          "design",
          "--alert",
          "flaky-rate",
          "--at",
          `${day}T08:00:00Z`,
          "--config",
          gone.configPath,
        ],
        gone.env,
      );
      return (await cli.exit).code;
    };
    expect(await run("2026-11-19")).toBe(0);
    gone.slack.posts.splice(0); // someone deleted it
    expect(await run("2026-11-20")).toBe(0);
    const update = gone.slack.calls.find((c) => c.method === "chat.update");
    expect(update).toBeDefined();
    expect(gone.slack.posts).toHaveLength(1);
    expect(gone.slack.posts[0]?.thread_ts).toBeNull();
    expect(gone.slack.posts[0]?.text).toContain("above critical 5%");
  });

  it("moves the fire to the new post: later changes edit it and reply in its thread, never the deleted one", async () => {
    const cli = runCli(
      [
        "alerts",
        "--team",
        "design",
        "--alert",
        "flaky-rate",
        "--at",
        "2026-11-21T08:00:00Z", // window Nov 20: 4.0%, de-escalates
        "--config",
        gone.configPath,
      ],
      gone.env,
    );
    expect((await cli.exit).code).toBe(0);
    const [moved, reply, ...more] = gone.slack.posts;
    expect(more).toEqual([]);
    expect(reply?.thread_ts).toBe(moved?.ts);
    const updates = gone.slack.calls.filter((c) => c.method === "chat.update");
    expect(updates.at(-1)?.params.ts).toBe(moved?.ts);
    // No longer red: the new post shows the state now.
    expect(moved?.edits).toBe(1);
    expect(moved?.text).toContain("Still firing (warn)");
  });
});

describe("alerts --outbox", () => {
  let dry: AlertSetup;
  beforeAll(async () => {
    dry = await startAlertSetup({ today: "2026-11-23", schedule: "0 9 * * *" });
  });
  afterAll(() => dry?.close());

  it("is a dry run: writes what would be sent and leaves the states as they were", async () => {
    const run = async (day: string, outbox?: string) => {
      const args = [
        "alerts",
        "--team",
        "design",
        "--alert",
        "flaky-rate",
        "--at",
        `${day}T08:00:00Z`,
      ];
      const cli = runCli(
        [...args, ...(outbox ? ["--outbox", outbox] : []), "--config", dry.configPath],
        dry.env,
      );
      const out: string[] = [];
      cli.child.stdout?.on("data", (chunk: Buffer) => out.push(chunk.toString()));
      return { code: (await cli.exit).code, out: out.join("") };
    };
    expect((await run("2026-11-19")).code).toBe(0); // fires for real: warn
    const outbox = `${dry.dir}/outbox`;
    const dryRun = await run("2026-11-20", outbox); // would escalate
    expect(dryRun.code).toBe(0);
    // Written, never "sent": the outbox is not a delivery.
    expect(dryRun.out).toContain("\u2713 slack:C0123ABCD written to the outbox");
    expect(dryRun.out).not.toMatch(/\bsent\b/);
    const files = readdirSync(outbox);
    expect(files.sort()).toEqual([
      "design.alert.flaky-rate.2026-11-19.eml",
      "design.alert.flaky-rate.2026-11-19.slack.json",
      "design.alert.flaky-rate.2026-11-19.update.design.alert.flaky-rate.2026-11-18.slack.json",
    ]);
    const post = JSON.parse(
      readFileSync(`${outbox}/design.alert.flaky-rate.2026-11-19.slack.json`, "utf8"),
    );
    expect(post.thread_ts).toBe(dry.slack.posts[0]?.ts);
    expect(dry.slack.posts).toHaveLength(1);
    const ledger = openLedger(dry.ledgerPath);
    try {
      expect((await ledger.alertStates("design", "flaky-rate")).map((s) => s.state)).toEqual([
        "warn",
      ]);
      expect(await ledger.getSlot("design.alert.flaky-rate.2026-11-19")).toBeNull();
    } finally {
      await ledger.close();
    }
  });
});
