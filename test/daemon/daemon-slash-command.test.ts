import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load-config.js";
import { type DaemonService, startDaemonService } from "../../src/daemon/daemon-service.js";
import { FAKE_SLACK_APP_TOKEN, type FakeSlack } from "../fake-slack/fake-slack-server.js";
import { captureLogs } from "./daemon-harness.js";
import { type LiveSetup, startLiveSetup, waitFor } from "./live-setup.js";
import { ASKED_AT, DAILY, FIRES_AT, WEEKLY } from "./slash-digests.js";

/**
 * `/insights` through the whole daemon (issue 24 §3): the fake Slack's Socket Mode sends a
 * `slash_commands` envelope, the daemon acks it, posts the digest to the team's channel, records
 * it, and answers the asker at the command's response URL. The daemon's clock is the test's,
 * so the schedule's next fire comes when the test says.
 */

let live: LiveSetup | null = null;
let service: DaemonService | null = null;
afterEach(async () => {
  await service?.stop(5_000);
  service = null;
  await live?.close();
  live = null;
});

const digestsIn = (slack: FakeSlack, channel: string) =>
  slack.posts.filter((p) => p.channel === channel && p.thread_ts === null);

describe("the daemon's /insights command", () => {
  it("posts the digest asked for once, answers the asker, and the schedule's next fire posts only its own period", async () => {
    live = await startLiveSetup({
      digests: [WEEKLY, DAILY],
    });
    const clock = { at: ASKED_AT };
    const config = loadConfig(live.configPath, {
      env: { ...live.env, SLACK_APP_TOKEN: FAKE_SLACK_APP_TOKEN },
    });
    const { lines: logs, logger } = captureLogs();
    service = await startDaemonService(config, {
      logger,
      now: () => clock.at,
      tickMs: 50,
      socketReconnectStepMs: 50,
    });
    const daemon = service;
    await waitFor("connected", () => daemon.slackSocket()?.state === "connected");

    const responseUrl = live.slack.responseUrl();
    const payload = {
      command: "/insights",
      text: "digest checkout weekly",
      user_id: "U0MARIA",
      channel_id: "C0123ABCD",
      response_url: responseUrl,
    };
    const acked = await live.slack.socket.send("slash_commands", payload);
    expect(acked.ackedAt).not.toBeNull();
    const slack = live.slack;
    await waitFor("the answer", () => slack.responses.filter((r) => r.url === responseUrl)[1]);
    expect(slack.responses.map((r) => [r.responseType, r.text])).toEqual([
      [
        "ephemeral",
        "Posting the weekly digest of checkout for Nov 16 \u2013 22, 2026 (the fire of Mon Nov 23 09:00 CET) now\u2026",
      ],
      [
        "ephemeral",
        "The weekly digest of checkout for Nov 16 \u2013 22, 2026 (the fire of Mon Nov 23 09:00 CET):\n\u2713 posted to <#C0123ABCD>",
      ],
    ]);
    expect(digestsIn(slack, "C0123ABCD")).toHaveLength(1);
    expect(logs.find((l) => l.msg === "Slack command")).toMatchObject({
      slackUser: "U0MARIA",
      command: "/insights digest checkout weekly",
      envelopeId: acked.envelopeId,
    });

    // Slack sends it again (our ack was lost): nothing more is posted, the asker is told.
    await slack.socket.send("slash_commands", payload, {
      envelopeId: acked.envelopeId,
      retryAttempt: 1,
    });
    const again = await waitFor(
      "the second answer",
      () => slack.responses.filter((r) => r.url === responseUrl)[2],
    );
    expect(again.text).toMatch(
      /^The weekly digest of checkout for Nov 16 – 22, 2026 \(the fire of Mon Nov 23 09:00 CET\) was already posted: <#C0123ABCD> at Tue 24 Nov 08:00 Europe\/Berlin\./,
    );

    // 09:00 in Berlin: the daily fires and posts; the weekly, delivered, is posted no more.
    clock.at = new Date(FIRES_AT.getTime() + 1_000);
    await waitFor("the daily digest of the 09:00 fire", () => digestsIn(slack, "C0ALERTS")[0]);
    await waitFor("a tick after it", () => {
      const { lastTickAt, running } = daemon.daemon.status();
      return lastTickAt !== null && lastTickAt >= clock.at && running.length === 0;
    });
    expect(digestsIn(slack, "C0123ABCD")).toHaveLength(1);
    const history = logs.filter((l) => l.msg === "digest done").map((l) => l.slot);
    expect(history).toEqual(["checkout.weekly.2026-11-16_2026-11-22", "checkout.daily.2026-11-23"]);

    // Status and a mistyped team: answered to the asker alone, nothing posted.
    for (const [text, expected] of [
      ["status checkout", "No alert of *checkout* is firing now (Tue 24 Nov 09:00 Europe/Berlin)."],
      ["digest chekout", "There is no team `chekout`. Teams: `checkout`."],
    ] as const) {
      const url = slack.responseUrl();
      await slack.socket.send("slash_commands", { ...payload, text, response_url: url });
      const answer = await waitFor(text, () => slack.responses.find((r) => r.url === url));
      expect([answer.responseType, answer.text]).toEqual(["ephemeral", expected]);
    }
    expect(slack.posts.filter((p) => !p.thread_ts)).toHaveLength(2);
  });

  it("a digest asked for is one of the daemon's runs: listed, counted, and bounded by the grace at shutdown", async () => {
    live = await startLiveSetup({
      digests: [WEEKLY, DAILY],
    });
    const config = loadConfig(live.configPath, {
      env: { ...live.env, SLACK_APP_TOKEN: FAKE_SLACK_APP_TOKEN },
    });
    const { lines: logs, logger } = captureLogs();
    const started = await startDaemonService(config, {
      logger,
      now: () => ASKED_AT,
      tickMs: 50,
      socketReconnectStepMs: 50,
    });
    service = started;
    await waitFor("connected", () => started.slackSocket()?.state === "connected");
    const slack = live.slack;
    const ask = async (text: string) => {
      const url = slack.responseUrl();
      const payload = { command: "/insights", text, user_id: "U0MARIA", channel_id: "C0123ABCD" };
      await slack.socket.send("slash_commands", { ...payload, response_url: url });
      return url;
    };

    // The weekly digest's post held in Slack: the run is in the daemon's running list.
    const weekly = slack.holdNext("chat.postMessage", { channel: "C0123ABCD" });
    const weeklyUrl = await ask("digest checkout weekly");
    await weekly.arrived;
    expect(started.daemon.status().running).toEqual(["checkout.weekly.2026-11-16_2026-11-22"]);
    weekly.release();
    await waitFor("the answer", () => slack.responses.filter((r) => r.url === weeklyUrl)[1]);
    // Counted among the slots, marked as asked for from Slack.
    const metrics = await (await fetch(`${started.opsUrl}/metrics`)).text();
    expect(metrics).toContain(
      'insights_reporter_slots_total{team="checkout",kind="digest",job="weekly",result="delivered",trigger="slash_command"} 1',
    );

    // The daily digest's post never answered: shutdown waits the grace for it, no longer.
    const daily = slack.holdNext("chat.postMessage", { channel: "C0ALERTS" });
    daily.neverAnswer();
    await ask("digest checkout daily");
    await daily.arrived;
    expect(started.daemon.status().running).toEqual(["checkout.daily.2026-11-22"]);
    service = null;
    await started.stop(100);
    expect(logs.find((l) => l.msg === "daemon stopped")).toBeDefined();
    expect(
      logs.find((l) => String(l.msg).startsWith("stopping with slots still in flight")),
    ).toMatchObject({ unfinished: ["checkout.daily.2026-11-22"] });
  });
});
