import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AlertConfig } from "../../src/config/types.js";
import { noClients } from "../../src/destinations/registry.js";
import {
  ACKNOWLEDGED_BLOCK,
  ALERT_ACTION,
  alertActionsBlocks,
  SNOOZED_BLOCK,
} from "../../src/destinations/slack/messages/slack-alert-actions.js";
import { slackActionsApi } from "../../src/destinations/slack/slack-actions-api.js";
import type { SlackBlock } from "../../src/messages.js";
import { Secret } from "../../src/secret.js";
import { handleAlertAction } from "../../src/slack-app/alert-actions.js";
import { openSlackSocket, type SlackSocket } from "../../src/slack-app/slack-socket.js";
import type { Ledger } from "../../src/state/ledger.js";
import { openLedger } from "../../src/state/sqlite/open-ledger.js";
import { aTeam, captureLogs } from "../daemon/daemon-harness.js";
import { waitFor } from "../daemon/live-setup.js";
import { pressPayload } from "../fake-slack/alert-press.js";
import {
  FAKE_SLACK_APP_TOKEN,
  FAKE_SLACK_TOKEN,
  type FakePost,
  type FakeSlack,
  startFakeSlack,
} from "../fake-slack/fake-slack-server.js";
import { aSlot } from "../state/ledger-builders.js";

// Pressing an alert's buttons (issue 24), in-process: the real Socket Mode client against the
// fake Slack's Socket Mode, the handler, a real SQLite ledger, and the answers on the fake Web
// API. Who acts is a Slack user id; the clock is fixed at 13:05 UTC (14:05 in Berlin).

const FIRE = "checkout.alert.flaky-rate.2026-11-24";
const NOW = new Date("2026-11-25T13:05:00.000Z");
const CHANNEL = "C0ALERTS";

let slack: FakeSlack | null = null;
let socket: SlackSocket | null = null;
let ledger: Ledger | null = null;
let dir: string | null = null;
afterEach(async () => {
  await socket?.stop();
  await slack?.close();
  await ledger?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  socket = slack = ledger = dir = null;
});

async function setUp(alertActors: string[] | null = null, ownLines: SlackBlock[] = []) {
  slack = await startFakeSlack({ usergroups: { S0QALEADS: ["U0ANA"] } });
  dir = mkdtempSync(join(tmpdir(), "alert-actions-"));
  const store = openLedger(join(dir, "ledger.sqlite"));
  ledger = store;
  // The fire, as an evaluation recorded it: one project warn, threaded under FIRE.
  await store.recordAlertEvaluation({
    slot: aSlot({ key: FIRE, kind: "alert", job: "flaky-rate", destinations: [] }),
    alert: "flaky-rate",
    states: [
      {
        team: "checkout",
        alert: "flaky-rate",
        scope: "pdqmxlz",
        state: "warn",
        since: new Date("2026-11-25T08:00:00Z"),
        breaches: 1,
        lastValue: 4.2,
        lastNotifiedAt: new Date("2026-11-25T08:00:00Z"),
        firedAt: new Date("2026-11-25T08:00:00Z"),
        threadKey: FIRE,
      },
    ],
    results: [],
    notification: { slack: null, email: null, msteams: null, webhook: null, pagerduty: null },
  });
  const post = await postFire(slack, ownLines);
  const team = aTeam({ alerts: [{ name: "flaky-rate" } as AlertConfig], alertActors });
  const { lines, logger } = captureLogs();
  const api = slackActionsApi(new Secret(FAKE_SLACK_TOKEN), slack.url);
  socket = openSlackSocket({
    appToken: new Secret(FAKE_SLACK_APP_TOKEN),
    apiUrl: slack.url,
    logger,
    reconnectStepMs: 50,
    onEnvelope: async (envelope) => {
      if (envelope.type !== "interactive") return;
      await handleAlertAction(envelope.body, {
        ledger: store,
        slack: api,
        alertClients: noClients(),
        teams: () => [team],
        logger,
        now: () => NOW,
      });
    },
  });
  const live = slack;
  const open = socket;
  await waitFor("connected", () => open.status().state === "connected");
  /** Sends a press and waits until the handler logged its outcome. */
  const press = async (payload: Record<string, unknown>, retryAttempt = 0) => {
    const before = lines.filter((l) => String(l.msg).startsWith("alert action")).length;
    await live.socket.send("interactive", payload, { retryAttempt });
    return waitFor("the press handled", () =>
      lines.filter((l) => String(l.msg).startsWith("alert action")).at(before),
    );
  };
  const thread = () => live.posts.filter((p) => p.thread_ts === post.ts);
  return { slack: live, ledger: store, post, press, thread, logs: lines, socket: open };
}

/** The fire's first message, as the alert posted it: a line, `ownLines`, and its buttons. */
async function postFire(fake: FakeSlack, ownLines: SlackBlock[]): Promise<FakePost> {
  const response = await fetch(`${fake.url}chat.postMessage`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${FAKE_SLACK_TOKEN}`,
      "content-type": "application/json; charset=utf-8",
    },
    body: JSON.stringify({
      channel: CHANNEL,
      text: "Checkout squad · flaky-rate: pdqmxlz flaky rate 4.2%",
      blocks: [
        { type: "section", text: { type: "mrkdwn", text: "🟠 *Checkout squad · flaky-rate*" } },
        ...ownLines,
        ...alertActionsBlocks(FIRE),
      ],
    }),
  });
  const { ts } = (await response.json()) as { ts: string };
  const post = fake.posts.find((p) => p.ts === ts);
  if (!post) throw new Error("the fire was not posted");
  return post;
}

describe("pressing an alert's buttons", () => {
  it("Acknowledge is stored once, shown in the edited first message and said in the thread; a redelivery after a drop adds nothing", async () => {
    const { slack, ledger, post, press, thread, socket } = await setUp();
    const ack = pressPayload(post, {
      user: "U0MARIA",
      actionId: ALERT_ACTION.acknowledge,
      actionTs: "1764075900.000100",
    });
    expect(await press(ack)).toMatchObject({
      msg: "alert action applied",
      slackUser: "U0MARIA",
      action: "acknowledge",
      team: "checkout",
      alert: "flaky-rate",
    });
    expect(await ledger.acknowledgements("checkout", "flaky-rate")).toEqual([
      expect.objectContaining({ fireKey: FIRE, author: "U0MARIA", acknowledgedAt: NOW }),
    ]);
    expect(post.edits).toBe(1);
    const edited = JSON.stringify(post.blocks);
    expect(edited).toContain("Acknowledged by <@U0MARIA> at Wed 25 Nov 14:05 Europe/Berlin");
    // Still firing: the buttons stay, under the acknowledgement.
    expect(edited.indexOf("Acknowledged by")).toBeLessThan(
      edited.indexOf(ALERT_ACTION.acknowledge),
    );
    expect(thread().map((p) => p.text)).toEqual([":eyes: Acknowledged by <@U0MARIA>"]);

    // The connection drops before Slack saw the ack; it reconnects and Slack sends the press again.
    slack.socket.drop();
    await waitFor("the second connection", () => socket.status().connects >= 2);
    expect(await press(ack, 1)).toMatchObject({ msg: "alert action already applied" });
    expect(slack.socket.connections.map((c) => c.open)).toEqual([false, true]);
    expect(await ledger.acknowledgements("checkout", "flaky-rate")).toHaveLength(1);
    expect(post.edits).toBe(1);
    expect(thread()).toHaveLength(1);
  });

  it("edits keep one acknowledgement line and one snooze line, by their block ids, and replace the id-less lines an earlier build wrote", async () => {
    const line = (text: string): SlackBlock => ({
      type: "context",
      elements: [{ type: "mrkdwn", text }],
    });
    // A message posted before these lines had ids: an earlier build's acknowledgement and
    // snooze lines above the buttons (Slack gives them ids of its own), and the alert's line.
    const own = line("flaky rate 4.2% on pdqmxlz, over the 3% threshold");
    const ownLines = [
      own,
      line(":eyes: Acknowledged by <@U0OPS> at Wed 13:00 Europe/Berlin"),
      line(":zzz: Snoozed until Wed 14:00 Europe/Berlin by <@U0OPS>"),
    ];
    const { post, press } = await setUp(null, ownLines);
    const ack = (user: string, actionTs: string) =>
      pressPayload(post, { user, actionId: ALERT_ACTION.acknowledge, actionTs });
    await press(ack("U0MARIA", "1764075900.000700"));
    await press(
      pressPayload(post, {
        user: "U0MARIA",
        actionId: ALERT_ACTION.snooze,
        option: "1h",
        actionTs: "1764075900.000800",
      }),
    );
    await press(ack("U0BOB", "1764075900.000900"));
    expect(post.edits).toBe(3);
    const blocks = (post.blocks ?? []) as SlackBlock[];
    // The alert's own line stays; the earlier build's press lines are replaced by ours.
    expect(blocks[1]).toEqual(own);
    const texts = (id: string) =>
      blocks
        .filter((b) => b.block_id === id)
        .map((b) => (b.elements as { text: string }[])[0]?.text);
    expect(texts(ACKNOWLEDGED_BLOCK)).toEqual([
      ":eyes: Acknowledged by <@U0BOB> at Wed 25 Nov 14:05 Europe/Berlin",
    ]);
    expect(texts(SNOOZED_BLOCK)).toEqual([
      ":zzz: Snoozed until Wed 25 Nov 15:05 Europe/Berlin by <@U0MARIA>",
    ]);
    expect(blocks.map((b) => b.block_id ?? b.type)).toEqual([
      "section",
      "context",
      ACKNOWLEDGED_BLOCK,
      SNOOZED_BLOCK,
      `insights_alert:${FIRE}`,
    ]);
  });

  it("Snooze stores a silence of the fire's scope with its author and end, says so with End snooze, which ends it once", async () => {
    const { ledger, post, press, thread } = await setUp();
    const snooze = pressPayload(post, {
      user: "U0MARIA",
      actionId: ALERT_ACTION.snooze,
      option: "1d",
      actionTs: "1764075900.000200",
    });
    expect(await press(snooze)).toMatchObject({ msg: "alert action applied", action: "snooze" });
    const [silence] = await ledger.silences({ team: "checkout" });
    expect(silence).toMatchObject({
      alert: "flaky-rate",
      scope: "pdqmxlz",
      author: "U0MARIA",
      startsAt: NOW,
      endsAt: new Date("2026-11-26T13:05:00.000Z"),
      endedAt: null,
    });
    const [line] = thread();
    expect(line?.text).toBe(
      ":zzz: Snoozed for 1 day by <@U0MARIA> \u2014 until Thu 26 Nov 14:05 Europe/Berlin",
    );
    // The same press delivered again (the same action_ts) adds nothing.
    expect(await press(snooze, 1)).toMatchObject({ msg: "alert action already applied" });
    expect(await ledger.silences({})).toHaveLength(1);

    if (!line) throw new Error("no thread line");
    const end = pressPayload(line, {
      user: "U0BOB",
      actionId: ALERT_ACTION.endSnooze,
      actionTs: "1764075900.000300",
    });
    expect(await press(end)).toMatchObject({ msg: "alert action applied", action: "end_snooze" });
    expect(await ledger.silences({ activeAt: NOW })).toEqual([]);
    expect((await ledger.silences({}))[0]).toMatchObject({ endedBy: "U0BOB", endedAt: NOW });
    expect(await press(end, 1)).toMatchObject({ msg: "alert action already applied" });
    // Pressed again later by someone else: told, alone, that there is nothing left to end.
    const again = pressPayload(line, {
      user: "U0ANA",
      actionId: ALERT_ACTION.endSnooze,
      actionTs: "1764075900.000400",
    });
    expect(await press(again)).toMatchObject({ msg: "alert action already applied" });
    expect(slack?.ephemerals.at(-1)).toEqual({
      channel: CHANNEL,
      user: "U0ANA",
      text: "This snooze was ended already, by <@U0BOB> at Wed 25 Nov 14:05 Europe/Berlin: there is nothing to end.",
    });
    expect(thread().map((p) => p.text)).toEqual([
      ":zzz: Snoozed for 1 day by <@U0MARIA> \u2014 until Thu 26 Nov 14:05 Europe/Berlin",
      ":bell: Snooze ended by <@U0BOB>",
    ]);
  });

  it("End snooze ends only this alert's silences, whatever ids its button carries", async () => {
    const { ledger, post, press, thread } = await setUp();
    const other = await ledger.addSilence(
      {
        key: "cli:another-alert",
        team: "checkout",
        alert: "run-pass-rate",
        scope: "pdqmxlz",
        author: "cli:ana",
        startsAt: NOW,
        endsAt: new Date(NOW.getTime() + 3_600_000),
      },
      NOW,
    );
    const snooze = pressPayload(post, {
      user: "U0MARIA",
      actionId: ALERT_ACTION.snooze,
      option: "1h",
      actionTs: "1764075900.000500",
    });
    expect(await press(snooze)).toMatchObject({ msg: "alert action applied" });
    const [line] = thread();
    if (!line) throw new Error("no thread line");
    const end = pressPayload(line, {
      user: "U0BOB",
      actionId: ALERT_ACTION.endSnooze,
      actionTs: "1764075900.000600",
    });
    // A value naming another alert's silence too, as a tampered or stale button could.
    const [action] = end.actions as { value: string }[];
    if (!action) throw new Error("no action");
    action.value = `${action.value},${other.silence.id}`;
    expect(await press(end)).toMatchObject({ msg: "alert action applied", action: "end_snooze" });
    const standing = await ledger.silences({ activeAt: NOW });
    expect(standing.map((x) => x.id)).toEqual([other.silence.id]);
  });

  it("refuses someone outside alert_actors with a message only they see, and lets a member of a listed user group act", async () => {
    const { slack, ledger, post, press, thread } = await setUp(["S0QALEADS", "U0LEAD"]);
    const snooze = (user: string, actionTs: string) =>
      pressPayload(post, { user, actionId: ALERT_ACTION.snooze, option: "1h", actionTs });
    expect(await press(snooze("U0BOB", "1764075900.000400"))).toMatchObject({
      msg: "alert action refused: not an alert actor",
      slackUser: "U0BOB",
    });
    // The handler logs the refusal before it posts it: wait for the post to reach Slack.
    await waitFor("the refusal posted", () => slack.ephemerals.length > 0);
    expect(slack.ephemerals).toEqual([
      {
        channel: CHANNEL,
        user: "U0BOB",
        text: "Only <!subteam^S0QALEADS> or <@U0LEAD> can snooze this alert.",
      },
    ]);
    expect(await ledger.silences({})).toEqual([]);
    expect(thread()).toEqual([]);

    expect(await press(snooze("U0ANA", "1764075900.000500"))).toMatchObject({
      msg: "alert action applied",
      slackUser: "U0ANA",
    });
    expect(await ledger.silences({})).toHaveLength(1);
    expect(slack.calls.filter((c) => c.method === "usergroups.users.list")).not.toHaveLength(0);
  });

  it("ignores a press that is not one of its buttons", async () => {
    const { slack, post, logs, press, ledger } = await setUp();
    await slack.socket.send("interactive", {
      type: "block_actions",
      user: { id: "U0MARIA" },
      channel: { id: CHANNEL },
      message: { ts: post.ts },
      actions: [{ action_id: "someone_elses", block_id: "x", action_ts: "1.2" }],
    });
    // The ignored press needs no I/O after its ack: once the next press is done, so is it.
    await press(
      pressPayload(post, { user: "U0MARIA", actionId: ALERT_ACTION.acknowledge, actionTs: "3.4" }),
    );
    expect(logs.filter((l) => String(l.msg).startsWith("alert action"))).toHaveLength(1);
    expect(await ledger.acknowledgements("checkout", "flaky-rate")).toHaveLength(1);
    expect(slack.ephemerals).toEqual([]);
  });
});
