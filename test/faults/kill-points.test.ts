import { describe, expect, it } from "vitest";
import { messageIdForKey } from "../../src/destinations/email/email-message-id.js";
import type { DaemonProcess } from "../daemon/daemon-process.js";
import { useLiveDaemons } from "../daemon/live-daemons.js";
import { digestPosts, waitFor } from "../daemon/live-setup.js";
import { runCli } from "../e2e/run-cli.js";

/**
 * The daemon SIGKILLed at one point of a cycle after another, restarted each time, seen only
 * from outside: the fake Slack, the SMTP server, the logs and `history`. The fakes hold a
 * request at the point in question, so the test knows the daemon is there when it kills it.
 * (test/daemon/daemon-process.test.ts covers single kills mid-post and mid-upload, with the
 * ledger's own view; this is one cycle through every point in turn, email included.)
 */

const WEEKLY_CHANNEL = "C0123ABCD";
const MONTHLY_CHANNEL = "C0ALERTS";
const WEEKLY_TO = "qa@example.com";

const daemons = useLiveDaemons();
const start = daemons.start;

/** Once every hold has been reached, kills the daemon outright. */
async function killWhenAt(daemon: DaemonProcess, ...reached: Promise<unknown>[]): Promise<void> {
  await Promise.all(reached);
  daemon.child.kill("SIGKILL");
  expect(await daemon.exit).toEqual({ code: null, signal: "SIGKILL" });
}

/** The daemon's first log line with this msg (and matching `where`); slow machines get 30 s. */
function logged(
  daemon: DaemonProcess,
  msg: string,
  where: (line: Record<string, unknown>) => boolean,
): Promise<Record<string, unknown>> {
  return waitFor(`log "${msg}"`, () => daemon.logs.find((l) => l.msg === msg && where(l)), 30_000);
}

/** How many times each value occurs. */
function counts(values: readonly unknown[]): Record<string, number> {
  const tally: Record<string, number> = {};
  for (const value of values) tally[String(value)] = (tally[String(value)] ?? 0) + 1;
  return tally;
}

describe("the daemon killed at five points of a cycle and restarted each time", () => {
  it("delivers every slot exactly once: one post per key on Slack, one mail per Message-ID", async () => {
    const live = await daemons.setup({
      // A restart takes over a send once it began three seconds ago, not five minutes (the
      // default). Not less: a Slack send is also abandoned at send_timeout, and each point
      // waits for both holds (Slack's and the mail's) before the kill, which on a busy machine
      // can take over a second; a Slack send abandoned before the kill is retried a minute on.
      sendTimeout: "3s",
      digests: [
        {
          name: "weekly",
          schedule: "* * * * *", // due at start; every fire of a week is the same slot
          period: "previous_week",
          catch_up: "10m",
          // The kill points are the workbook's and the mail's: no chart upload beside them.
          charts: false,
          slack: { channel: WEEKLY_CHANNEL, attach_xlsx: true },
          email: { to: [WEEKLY_TO], attach_xlsx: false },
        },
        {
          name: "monthly",
          schedule: "* * * * *",
          period: "previous_month",
          catch_up: "10m",
          charts: false,
          slack: { channel: MONTHLY_CHANNEL },
          email: { to: ["leads@example.com"], attach_xlsx: false },
        },
      ],
    });
    const { slack, smtp } = live;
    const weeklyPosts = () => digestPosts(slack).filter((p) => p.channel === WEEKLY_CHANNEL);
    // The weekly mail is held at every kill but the last: each restart sends it again.
    const holdMail = () => smtp.holdNext(WEEKLY_TO);

    // 1. Before the post: Slack has the request but does nothing with it. The monthly slot,
    //    untouched by any hold, is delivered meanwhile.
    const unposted = slack.holdNext("chat.postMessage", {
      channel: WEEKLY_CHANNEL,
      effect: "on-release",
    });
    let mail = holdMail();
    const first = start(live);
    const monthly = await logged(first, "digest done", (l) => String(l.slot).includes(".monthly."));
    const monthlyKey = String(monthly.slot);
    await killWhenAt(first, unposted.arrived, mail.arrived);
    unposted.neverAnswer();
    mail.drop();
    expect(weeklyPosts()).toEqual([]);

    // 2. Between the post and the ledger's record: Slack made the post; its answer never came.
    const posted = slack.holdNext("chat.postMessage", { channel: WEEKLY_CHANNEL });
    mail = holdMail();
    await killWhenAt(start(live), posted.arrived, mail.arrived);
    posted.neverAnswer();
    mail.drop();
    expect(weeklyPosts()).toHaveLength(1);

    // 3. During the upload, sending the workbook's bytes (the restart found the post).
    const bytes = slack.holdNext("upload", { effect: "on-release" });
    mail = holdMail();
    await killWhenAt(start(live), bytes.arrived, mail.arrived);
    bytes.neverAnswer();
    mail.drop();

    // 4. During the upload, completing it: the file would be shared in the thread now.
    const sharing = slack.holdNext("files.completeUploadExternal", { effect: "on-release" });
    mail = holdMail();
    await killWhenAt(start(live), sharing.arrived, mail.arrived);
    sharing.neverAnswer();
    mail.drop();
    expect(slack.uploads).toEqual([]);

    // 5. During the email, once the Slack delivery is finished and recorded.
    mail = holdMail();
    const fifth = start(live);
    const slackDone = logged(
      fifth,
      "found the earlier delivery after a restart; not sending again",
      (l) => l.destination === `slack:${WEEKLY_CHANNEL}`,
    );
    await killWhenAt(fifth, slackDone, mail.arrived);
    mail.drop();
    expect(smtp.messages.filter((m) => m.envelope.to.includes(WEEKLY_TO))).toEqual([]);

    // The last start finishes the weekly slot; nothing is posted or mailed twice.
    const last = start(live);
    const done = await logged(last, "digest done", (l) => String(l.slot).includes(".weekly."));
    const weeklyKey = String(done.slot);
    expect(done.deliveries).toEqual({
      [`slack:${WEEKLY_CHANNEL}`]: "already-sent",
      [`email:${WEEKLY_TO}`]: "sent",
    });

    const keys = digestPosts(slack).map((p) => p.metadata?.event_payload.key);
    expect(counts(keys)).toEqual({ [weeklyKey]: 1, [monthlyKey]: 1 });
    expect(slack.uploads).toEqual([
      expect.objectContaining({ channel: WEEKLY_CHANNEL, thread_ts: weeklyPosts()[0]?.ts }),
    ]);
    const messageIds = smtp.messages.map((m) => m.parsed.messageId);
    expect(counts(messageIds)).toEqual({
      [messageIdForKey(weeklyKey)]: 1,
      [messageIdForKey(monthlyKey)]: 1,
    });

    // The ledger agrees: every destination of both slots sent.
    const history = await runCli(["history", "--config", live.configPath]);
    expect(history.code).toBe(0);
    const rows = history.stdout.split("\n").filter((l) => /(slack|email):/.test(l));
    expect(rows).toHaveLength(4);
    for (const row of rows) expect(row).toMatch(/\s(slack|email):\S+\s+sent\s/);
  }, 120_000);
});
