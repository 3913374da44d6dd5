import { readFileSync, writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { loadConfig } from "../../src/config/load-config.js";
import { type DaemonService, startDaemonService } from "../../src/daemon/daemon-service.js";
import { FAKE_SLACK_APP_TOKEN } from "../fake-slack/fake-slack-server.js";
import { createTestDatabase } from "../postgres/create-test-database.js";
import { captureLogs } from "./daemon-harness.js";
import { type LiveSetup, startLiveSetup, waitFor } from "./live-setup.js";
import { ASKED_AT, WEEKLY } from "./slash-digests.js";

/**
 * `/insights digest` with two replicas on one PostgreSQL (issue 24, ADR 0007): each holds its
 * own Socket Mode connection, and the same command reaches both (Slack redelivering it to the
 * other connection after a lost ack). The digest is fetched and posted once.
 */

let live: LiveSetup | null = null;
const services: DaemonService[] = [];
afterEach(async () => {
  for (const service of services.splice(0)) await service.stop(5_000);
  await live?.close();
  live = null;
});

describe("/insights digest on two replicas", () => {
  it("posts once when both replicas get the same command", async () => {
    live = await startLiveSetup({
      digests: [WEEKLY],
    });
    const document = parse(readFileSync(live.configPath, "utf8")) as {
      state: Record<string, unknown>;
    };
    document.state = { url: "${DATABASE_URL}" };
    writeFileSync(live.configPath, stringify(document));
    const env = {
      ...live.env,
      SLACK_APP_TOKEN: FAKE_SLACK_APP_TOKEN,
      DATABASE_URL: await createTestDatabase(),
    };
    const config = loadConfig(live.configPath, { env });
    const logs = captureLogs();
    for (let i = 0; i < 2; i++) {
      services.push(
        await startDaemonService(config, {
          logger: logs.logger,
          now: () => ASKED_AT,
          tickMs: 50,
          socketReconnectStepMs: 50,
        }),
      );
    }
    const slack = live.slack;
    await waitFor("both connected", () =>
      services.every((s) => s.slackSocket()?.state === "connected"),
    );
    const [first, second] = slack.socket.connections;
    if (!first || !second) throw new Error("two connections expected");

    const responseUrl = slack.responseUrl();
    const payload = {
      command: "/insights",
      text: "digest checkout weekly",
      user_id: "U0MARIA",
      channel_id: "C0123ABCD",
      response_url: responseUrl,
    };
    const sent = await slack.socket.send("slash_commands", payload, { connectionId: first.id });
    await slack.socket.send("slash_commands", payload, {
      connectionId: second.id,
      envelopeId: sent.envelopeId,
      retryAttempt: 1,
    });
    const finals = () =>
      slack.responses.filter((r) => r.url === responseUrl && r.text.startsWith("The weekly"));
    await waitFor("both replicas' answers", () => finals().length === 2);
    const handled = logs.lines.filter((l) => l.msg === "Slack command: digest now");
    expect(handled).toHaveLength(2);

    expect(slack.posts.filter((p) => p.channel === "C0123ABCD" && !p.thread_ts)).toHaveLength(1);
    const texts = finals().map((r) => r.text);
    expect(texts.filter((t) => t.includes("\u2713 posted to <#C0123ABCD>"))).toHaveLength(1);
    expect(texts.filter((t) => !t.includes("\u2713 posted"))[0]).toMatch(
      /is being posted right now|was already posted|is being sent by another process/,
    );
  });
});
