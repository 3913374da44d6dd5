import { readFileSync, writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { loadConfig } from "../../src/config/load-config.js";
import { type DaemonService, startDaemonService } from "../../src/daemon/daemon-service.js";
import { ALERT_ACTION } from "../../src/destinations/slack/messages/slack-alert-actions.js";
import { openStore } from "../../src/state/open/open-store.js";
import { openPostgresLedger } from "../../src/state/postgres/postgres-ledger.js";
import { type AlertSetup, startAlertSetup } from "../e2e/alert-fixture.js";
import { pressPayload } from "../fake-slack/alert-press.js";
import { FAKE_SLACK_APP_TOKEN, type FakePost } from "../fake-slack/fake-slack-server.js";
import { createTestDatabase } from "../postgres/create-test-database.js";
import { captureLogs } from "./daemon-harness.js";
import { runCli } from "./daemon-process.js";
import { waitFor } from "./live-setup.js";

/**
 * Issue 24's alert buttons over the whole path: the built `alerts` command evaluates one day at
 * a time (as the daemon would) over the emulator's spiking project (Nov 18 4.2%, Nov 19 7.5%,
 * Nov 20 4.0%); the daemon (in-process, its clock fixed after the fire) takes the presses from
 * the fake Socket Mode; both share one store.
 */

let setup: AlertSetup | null = null;
const services: DaemonService[] = [];
afterEach(async () => {
  await Promise.all(services.splice(0).map((s) => s.stop(5_000)));
  await setup?.close();
  setup = null;
});

const PRESSED_AT = new Date("2026-11-19T12:00:00.000Z");

async function startDaemon(live: AlertSetup, configPath = live.configPath) {
  const config = loadConfig(configPath, {
    env: { ...live.env, SLACK_APP_TOKEN: FAKE_SLACK_APP_TOKEN },
  });
  const { lines, logger } = captureLogs();
  const service = await startDaemonService(config, {
    logger,
    now: () => PRESSED_AT,
    tickMs: 200,
    socketReconnectStepMs: 50,
  });
  services.push(service);
  await waitFor("Socket Mode connected", () => service.slackSocket()?.state === "connected");
  return { service, logs: lines };
}

async function evaluate(live: AlertSetup, day: string, configPath = live.configPath) {
  const at = `${day}T08:00:00Z`;
  const cli = runCli(
    ["alerts", "--team", "design", "--alert", "flaky-rate", "--at", at, "--config", configPath],
    live.env,
  );
  const { code } = await cli.exit;
  expect(code, cli.text.join("\n")).toBe(0);
}

/**
 * The alert of every test, with its buttons (the app token set, so the alert carries them and
 * the daemon takes the presses), not fired yet. `warnAllAlong`: critical at 8%, so the 7.5% and
 * 4.0% days are warn like the 4.2% fire and no transition follows it until it resolves.
 */
async function startButtonSetup(options: { warnAllAlong?: boolean } = {}): Promise<AlertSetup> {
  const live = await startAlertSetup({ today: "2026-11-23", schedule: "0 9 * * *" });
  setup = live;
  live.env.SLACK_APP_TOKEN = FAKE_SLACK_APP_TOKEN;
  if (options.warnAllAlong) {
    const config = parse(readFileSync(live.configPath, "utf8"));
    config.teams[0].alerts[0].critical_at = 8;
    writeFileSync(live.configPath, stringify(config));
  }
  return live;
}

/** Evaluates Nov 19 (window Nov 18, 4.2%): the alert fires; its first message. */
async function fireAlert(live: AlertSetup): Promise<FakePost> {
  await evaluate(live, "2026-11-19");
  const [fire] = live.slack.posts;
  if (!fire) throw new Error("the alert did not fire");
  return fire;
}

/** Sends a press and waits for the handler's outcome line. */
async function press(
  live: AlertSetup,
  logs: Record<string, unknown>[],
  payload: Record<string, unknown>,
  connectionId?: number,
) {
  const before = logs.filter((l) => String(l.msg).startsWith("alert action")).length;
  await live.slack.socket.send("interactive", payload, connectionId ? { connectionId } : {});
  return waitFor("the press handled", () =>
    logs.filter((l) => String(l.msg).startsWith("alert action")).at(before),
  );
}

/** The texts of a message's context lines. */
const contexts = (post: FakePost) =>
  (post.blocks ?? []).flatMap((b) => {
    const block = b as { type?: string; elements?: { text?: string }[] };
    return block.type === "context" ? (block.elements ?? []).map((e) => e.text ?? "") : [];
  });

/** The action ids of a message's buttons and menus. */
const actionIds = (post: FakePost) =>
  (post.blocks ?? []).flatMap((b) => {
    const block = b as { type?: string; elements?: { action_id?: string }[] };
    return block.type === "actions" ? (block.elements ?? []).map((e) => e.action_id) : [];
  });

const thread = (live: AlertSetup, root: FakePost) =>
  live.slack.posts.filter((p) => p.thread_ts === root.ts);

describe("alert buttons, end to end", () => {
  it("an ack shows in the first message; a snooze holds the next transition back; once it ends the news is posted again", async () => {
    const live = await startButtonSetup();
    const fire = await fireAlert(live);
    expect(JSON.stringify(fire.blocks)).toContain(ALERT_ACTION.snooze);

    const { logs } = await startDaemon(live);
    const ack = pressPayload(fire, {
      user: "U0MARIA",
      actionId: ALERT_ACTION.acknowledge,
      actionTs: "1763553600.000100",
    });
    expect(await press(live, logs, ack)).toMatchObject({ msg: "alert action applied" });
    // 12:00Z is 13:00 in Berlin, the team's zone.
    expect(JSON.stringify(fire.blocks)).toContain(
      "Acknowledged by <@U0MARIA> at Thu 19 Nov 13:00 Europe/Berlin",
    );

    const snooze = pressPayload(fire, {
      user: "U0MARIA",
      actionId: ALERT_ACTION.snooze,
      option: "1d",
      actionTs: "1763553600.000200",
    });
    expect(await press(live, logs, snooze)).toMatchObject({ msg: "alert action applied" });
    expect(thread(live, fire).map((p) => p.text)).toEqual([
      ":eyes: Acknowledged by <@U0MARIA>",
      ":zzz: Snoozed for 1 day by <@U0MARIA> \u2014 until Fri 20 Nov 13:00 Europe/Berlin",
    ]);
    // The first message says so too, with *End snooze* in the menu's place.
    expect(contexts(fire)).toContain(
      ":zzz: Snoozed until Fri 20 Nov 13:00 Europe/Berlin by <@U0MARIA>",
    );
    expect(actionIds(fire)).toEqual([ALERT_ACTION.acknowledge, ALERT_ACTION.endSnooze]);

    // Nov 20 08:00Z, under the snooze: the escalation to 7.5% is recorded, not posted.
    const posts = live.slack.posts.length;
    const edits = fire.edits;
    const mails = live.smtp.messages.length;
    await evaluate(live, "2026-11-20");
    expect(live.slack.posts).toHaveLength(posts);
    expect(fire.edits).toBe(edits);
    expect(live.smtp.messages).toHaveLength(mails);
    const store = await openStore(
      { path: live.ledgerPath, url: null },
      { logger: captureLogs().logger },
    );
    try {
      const [state] = await store.alertStates("design", "flaky-rate");
      expect(state?.state).toBe("critical");
      // The escalation cleared the acknowledgement.
      expect(await store.acknowledgements("design", "flaky-rate")).toEqual([]);
    } finally {
      await store.close();
    }

    // Nov 21 08:00Z, the snooze over (Nov 20 12:00Z): the news is posted once, in the thread.
    await evaluate(live, "2026-11-21");
    const replies = thread(live, fire).slice(2);
    expect(replies).toHaveLength(1);
    expect(replies[0]?.text).toMatch(/back under critical 5%, still above warn 3%/);
    expect(live.smtp.messages).toHaveLength(mails + 1);
    // The first message, edited: still firing, its buttons, no acknowledgement any more.
    expect(fire.text).toContain("Still firing (warn)");
    expect(JSON.stringify(fire.blocks)).toContain(ALERT_ACTION.acknowledge);
    expect(JSON.stringify(fire.blocks)).not.toContain("Acknowledged by");
    // The snooze ran out: the first message no longer shows it, and offers the menu again.
    expect(JSON.stringify(fire.blocks)).not.toContain("Snoozed until");
    expect(actionIds(fire)).toEqual([ALERT_ACTION.acknowledge, ALERT_ACTION.snooze]);
  });

  it("End snooze, on the first message or in the thread, edits the first message back", async () => {
    const live = await startButtonSetup();
    const fire = await fireAlert(live);
    const { logs } = await startDaemon(live);
    const snooze = (actionTs: string) =>
      pressPayload(fire, {
        user: "U0MARIA",
        actionId: ALERT_ACTION.snooze,
        option: "1h",
        actionTs,
      });
    const endSnooze = (post: FakePost, actionTs: string) =>
      pressPayload(post, { user: "U0JONAS", actionId: ALERT_ACTION.endSnooze, actionTs });

    await press(live, logs, snooze("1763553600.000500"));
    expect(contexts(fire)).toContain(
      ":zzz: Snoozed until Thu 19 Nov 14:00 Europe/Berlin by <@U0MARIA>",
    );
    // Acknowledged while snoozed: both lines, in the order the evaluation's edits show them.
    const ack = { user: "U0MARIA", actionId: ALERT_ACTION.acknowledge };
    await press(live, logs, pressPayload(fire, { ...ack, actionTs: "1763553600.000550" }));
    expect(contexts(fire).slice(1)).toEqual([
      ":eyes: Acknowledged by <@U0MARIA> at Thu 19 Nov 13:00 Europe/Berlin",
      ":zzz: Snoozed until Thu 19 Nov 14:00 Europe/Berlin by <@U0MARIA>",
    ]);
    expect(await press(live, logs, endSnooze(fire, "1763553600.000600"))).toMatchObject({
      msg: "alert action applied",
    });
    expect(contexts(fire).join("\n")).not.toContain("Snoozed until");
    expect(actionIds(fire)).toEqual([ALERT_ACTION.acknowledge, ALERT_ACTION.snooze]);

    await press(live, logs, snooze("1763553600.000700"));
    expect(actionIds(fire)).toEqual([ALERT_ACTION.acknowledge, ALERT_ACTION.endSnooze]);
    const line = thread(live, fire).findLast((p) => p.text.startsWith(":zzz: Snoozed"));
    if (!line) throw new Error("no snooze line in the thread");
    expect(await press(live, logs, endSnooze(line, "1763553600.000800"))).toMatchObject({
      msg: "alert action applied",
    });
    expect(contexts(fire).join("\n")).not.toContain("Snoozed until");
    expect(actionIds(fire)).toEqual([ALERT_ACTION.acknowledge, ALERT_ACTION.snooze]);
    expect(thread(live, fire).map((p) => p.text)).toEqual([
      ":zzz: Snoozed for 1 hour by <@U0MARIA> \u2014 until Thu 19 Nov 14:00 Europe/Berlin",
      ":eyes: Acknowledged by <@U0MARIA>",
      ":bell: Snooze ended by <@U0JONAS>",
      ":zzz: Snoozed for 1 hour by <@U0MARIA> \u2014 until Thu 19 Nov 14:00 Europe/Berlin",
      ":bell: Snooze ended by <@U0JONAS>",
    ]);
  });

  it("a snooze that ends on an alert still firing, with nothing new, posts its state once", async () => {
    // critical at 8%: the 7.5% and 4.0% days are warn like the 4.2% fire, so no transition
    // follows the fire until it resolves.
    const live = await startButtonSetup({ warnAllAlong: true });
    const fire = await fireAlert(live);
    const { logs } = await startDaemon(live);
    const snooze = pressPayload(fire, {
      user: "U0MARIA",
      actionId: ALERT_ACTION.snooze,
      option: "1d",
      actionTs: "1763553600.000400",
    });
    expect(await press(live, logs, snooze)).toMatchObject({ msg: "alert action applied" });
    const replies = () => thread(live, fire).slice(1);

    await evaluate(live, "2026-11-20"); // 7.5%, warn, under the snooze: nothing
    expect(replies()).toEqual([]);
    await evaluate(live, "2026-11-21"); // 4.0%, warn, the snooze over since Nov 20 12:00Z
    expect(replies()).toHaveLength(1);
    expect(replies()[0]?.text).toMatch(/Design system flaky rate 4\.\d%/);
    expect(JSON.stringify(replies()[0]?.blocks)).toContain("*Still firing*");
    expect(JSON.stringify(replies()[0]?.blocks)).toContain("snooze ran out");
    await evaluate(live, "2026-11-22"); // 0.9%: resolved, posted as always
    expect(replies()).toHaveLength(2);
    expect(replies()[1]?.text).toMatch(/resolved after/);
    expect(live.slack.posts.filter((p) => p.thread_ts === null)).toEqual([fire]);
  });

  it("a press whose answer failed after the store write shows at the next edit of the first message", async () => {
    // Warn all along: no escalation to clear the acknowledgement.
    const live = await startButtonSetup({ warnAllAlong: true });
    const fire = await fireAlert(live);
    const { logs } = await startDaemon(live);
    const failedEdits = () =>
      logs.filter(
        (l) =>
          l.msg ===
          "could not answer in the first message; what the press stored holds all the same",
      ).length;

    // Slack refuses both edits of the first message: the ack and the snooze are stored all the
    // same, and their thread lines are still written.
    live.slack.failNext("chat.update", "channel_not_found", { times: 2 });
    for (const [actionId, option, actionTs] of [
      [ALERT_ACTION.acknowledge, undefined, "1763553600.000900"],
      [ALERT_ACTION.snooze, "1h", "1763553600.001000"],
    ] as const) {
      const before = failedEdits();
      const payload = pressPayload(fire, {
        user: "U0MARIA",
        actionId,
        actionTs,
        ...(option ? { option } : {}),
      });
      expect(await press(live, logs, payload)).toMatchObject({ msg: "alert action applied" });
      expect(failedEdits()).toBe(before + 1);
    }
    expect(contexts(fire)).toEqual([expect.stringMatching(/^flaky rate/)]);
    expect(thread(live, fire).map((p) => p.text)).toEqual([
      ":eyes: Acknowledged by <@U0MARIA>",
      ":zzz: Snoozed for 1 hour by <@U0MARIA> \u2014 until Thu 19 Nov 14:00 Europe/Berlin",
    ]);

    // Nov 20 08:00Z, the snooze over: its release edits the first message, which now shows
    // the acknowledgement that stands, and no snooze.
    await evaluate(live, "2026-11-20");
    expect(thread(live, fire)).toHaveLength(3);
    expect(contexts(fire)).toContain(
      ":eyes: Acknowledged by <@U0MARIA> at Thu 19 Nov 13:00 Europe/Berlin",
    );
    expect(contexts(fire).join("\n")).not.toContain("Snoozed until");
    expect(actionIds(fire)).toEqual([ALERT_ACTION.acknowledge, ALERT_ACTION.snooze]);
  });

  it("two replicas on PostgreSQL, one press delivered to both: one silence, one thread line", async () => {
    const live = await startButtonSetup();
    const databaseUrl = await createTestDatabase();
    const config = parse(readFileSync(live.configPath, "utf8"));
    config.state = { url: "${DATABASE_URL}", send_timeout: "2s" };
    const pgConfig = live.configPath.replace(/\.yaml$/, ".postgres.yaml");
    writeFileSync(pgConfig, stringify(config));
    live.env.DATABASE_URL = databaseUrl;
    await evaluate(live, "2026-11-19", pgConfig);
    const [fire] = live.slack.posts;
    if (!fire) throw new Error("the alert did not fire");

    const one = await startDaemon(live, pgConfig);
    const two = await startDaemon(live, pgConfig);
    expect(live.slack.socket.connections.filter((c) => c.open)).toHaveLength(2);
    const snooze = pressPayload(fire, {
      user: "U0MARIA",
      actionId: ALERT_ACTION.snooze,
      option: "1h",
      actionTs: "1763553600.000300",
    });
    // Slack gave it to one replica, and again to the other (its ack was lost on the way).
    const outcomes = await Promise.all([
      press(live, one.logs, snooze, 1),
      press(live, two.logs, snooze, 2),
    ]);
    expect(outcomes.map((o) => o.msg).sort()).toEqual([
      "alert action already applied",
      "alert action applied",
    ]);
    expect(thread(live, fire).map((p) => p.text)).toEqual([
      ":zzz: Snoozed for 1 hour by <@U0MARIA> \u2014 until Thu 19 Nov 14:00 Europe/Berlin",
    ]);
    const store = await openPostgresLedger(databaseUrl, { logger: captureLogs().logger });
    try {
      expect(await store.silences({})).toEqual([
        expect.objectContaining({ author: "U0MARIA", startsAt: PRESSED_AT }),
      ]);
    } finally {
      await store.close();
    }
  });
});
