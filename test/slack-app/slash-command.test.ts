import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { loadConfig } from "../../src/config/load-config.js";
import type { ResolvedConfig } from "../../src/config/types.js";
import { createClients } from "../../src/create-deps.js";
import { type RunningEmulator, startEmulator } from "../../src/insights/emulator/start-emulator.js";
import { listJobs } from "../../src/scheduler/jobs.js";
import { createJobRunner } from "../../src/scheduler/run-slot.js";
import { createDaemon } from "../../src/scheduler/scheduler.js";
import { isSlackResponseUrl, slackResponder } from "../../src/slack-app/slack-response-url.js";
import type { SlackEnvelope } from "../../src/slack-app/slack-socket.js";
import { createSlashCommandHandler, parseSlashText } from "../../src/slack-app/slash-command.js";
import { createDigestNow } from "../../src/slack-app/slash-digest.js";
import type { Ledger } from "../../src/state/ledger.js";
import { openStore } from "../../src/state/open/open-store.js";
import { captureLogs } from "../daemon/daemon-harness.js";
import {
  DEFAULT_CHANNELS,
  FAKE_SLACK_TOKEN,
  type FakeSlack,
  startFakeSlack,
} from "../fake-slack/fake-slack-server.js";

/**
 * `/insights` (issue 24 §3) handled in-process as the daemon does after the ack: a real SQLite
 * ledger, the insights emulator, the fake Slack for the posts and the command's response URL.
 * The clock is the test's: Tue 24 Nov 2026 09:30 in Berlin, half an hour after checkout's daily
 * digest fired for Mon 23 Nov — the fire a digest asked for now posts, with the schedule's key.
 */

const ASKED_AT = new Date("2026-11-24T08:30:00.000Z"); // 09:30 Berlin
/** The daemon knew the jobs the day before, so it catches up on the morning's fires. */
const JOBS_SEEN_AT = new Date("2026-11-23T12:00:00.000Z");

interface Setup {
  config: ResolvedConfig;
  ledger: Ledger;
  slack: FakeSlack;
  emulator: RunningEmulator;
  clock: { at: Date };
  logs: Array<Record<string, unknown>>;
  /** A handler as one daemon has it; a second one over its own ledger connection is a replica. */
  handler(ledger?: Ledger): (envelope: SlackEnvelope) => Promise<void>;
  openLedger(): Promise<Ledger>;
}

let setup: Setup | null = null;
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  setup = null;
});

beforeEach(async () => {
  const clock = { at: ASKED_AT };
  const now = () => clock.at;
  const emulator = await startEmulator({ projects: 3, today: "2026-11-24" });
  cleanups.push(() => emulator.close());
  const slack = await startFakeSlack({
    channels: [...DEFAULT_CHANNELS, { id: "C0PAYMENTS", name: "payments" }],
  });
  cleanups.push(() => slack.close());
  const dir = mkdtempSync(join(tmpdir(), "slash-command-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const [first, second, third] = emulator.projects;
  if (!first || !second || !third) throw new Error("the emulator has fewer than 3 projects");
  const daily = (channel: string, schedule: string) => ({
    name: "daily",
    schedule,
    period: "previous_day",
    catch_up: "6h",
    slack: { channel },
  });
  const configPath = join(dir, "reporter.yaml");
  writeFileSync(
    configPath,
    stringify({
      api: { url: "${INSIGHTS_API_URL}", key: "${INSIGHTS_API_KEY}", max_attempts: 2 },
      state: { path: join(dir, "ledger.sqlite") },
      teams: [
        {
          name: "checkout",
          timezone: "Europe/Berlin",
          projects: [{ id: first.id, name: "Checkout web" }, { id: second.id }],
          digests: [
            daily("C0123ABCD", "0 9 * * *"),
            {
              name: "weekly",
              schedule: "0 9 * * 1",
              period: "previous_week",
              slack: { channel: "C0123ABCD" },
            },
          ],
          alerts: [
            {
              name: "flaky-rate",
              metric: "flaky_rate",
              window: "previous_day",
              schedule: "0 9 * * *",
              warn_at: 3,
              critical_at: 5,
              clear_at: 2.5,
              scope: "both",
              slack: { channel: "C0ALERTS" },
            },
          ],
        },
        {
          name: "payments",
          timezone: "UTC",
          projects: [{ id: third.id }],
          digests: [daily("C0PAYMENTS", "0 8 * * *")],
        },
      ],
    }),
  );
  const config = loadConfig(configPath, {
    env: {
      INSIGHTS_API_URL: emulator.url,
      INSIGHTS_API_KEY: "demo-key",
      SLACK_BOT_TOKEN: FAKE_SLACK_TOKEN,
      SLACK_API_URL: slack.url,
    },
  });
  const { lines: logs, logger } = captureLogs();
  const openLedger = async () => {
    const ledger = await openStore(config.state, { logger, now });
    cleanups.push(() => ledger.close());
    return ledger;
  };
  const ledger = await openLedger();
  const clients = createClients(config, { logger, now });
  cleanups.push(() => clients.close());
  setup = {
    config,
    ledger,
    slack,
    emulator,
    clock,
    logs,
    openLedger,
    handler: (on = ledger) =>
      createSlashCommandHandler({
        teams: () => config.teams,
        ledger: on,
        digestNow: createDigestNow({
          ledger: on,
          clients,
          sendTimeoutMs: config.state.sendTimeoutMs,
          owner: (asker) => `slash command by ${asker}, test`,
          logger,
          now,
        }),
        respond: slackResponder(config.slack.apiUrl),
        logger,
        now,
      }),
  };
});

function current(): Setup {
  if (!setup) throw new Error("no setup");
  return setup;
}

let envelopes = 0;
/** A slash_commands envelope as Socket Mode hands it over, with a fresh response URL. */
function command(text: string, options: { envelopeId?: string; responseUrl?: string } = {}) {
  const { slack } = current();
  return {
    envelopeId: options.envelopeId ?? `env-${++envelopes}`,
    type: "slash_commands",
    retryAttempt: 0,
    body: {
      command: "/insights",
      text,
      user_id: "U0MARIA",
      user_name: "maria",
      channel_id: "C0123ABCD",
      team_id: "T0FAKE",
      trigger_id: "1.2.3",
      response_url: options.responseUrl ?? slack.responseUrl(),
    },
  } satisfies SlackEnvelope;
}

/** The answers posted to one response URL. */
function answersTo(url: string) {
  return current().slack.responses.filter((r) => r.url === url);
}

const digestPostsIn = (slack: FakeSlack, channel: string) =>
  slack.posts.filter((p) => p.channel === channel && p.thread_ts === null);

describe("/insights digest", () => {
  it("posts the digest once, records it, and the schedule's fire for the same period posts nothing more", async () => {
    const { slack, ledger, config, logs, clock } = current();
    const asked = command("digest checkout daily");
    await current().handler()(asked);

    expect(digestPostsIn(slack, "C0123ABCD")).toHaveLength(1);
    const key = "checkout.daily.2026-11-23";
    expect(await ledger.isSlotDelivered(key)).toBe(true);
    expect((await ledger.getSlot(key))?.deliveries.map((d) => [d.destination, d.state])).toEqual([
      ["slack:C0123ABCD", "sent"],
    ]);
    const answers = answersTo(asked.body.response_url);
    expect(answers.map((a) => [a.responseType, a.text])).toEqual([
      [
        "ephemeral",
        "Posting the daily digest of checkout for Nov 23, 2026 (the fire of Tue Nov 24 09:00 CET) now\u2026",
      ],
      [
        "ephemeral",
        "The daily digest of checkout for Nov 23, 2026 (the fire of Tue Nov 24 09:00 CET):\n\u2713 posted to <#C0123ABCD>",
      ],
    ]);
    expect(logs.find((l) => l.msg === "Slack command")).toMatchObject({
      slackUser: "U0MARIA",
      command: "/insights digest checkout daily",
      envelopeId: asked.envelopeId,
    });
    // The response URL is a credential of sorts: never in the log.
    expect(JSON.stringify(logs)).not.toContain(asked.body.response_url);

    // The daemon was late: its first tick catches up on 09:00's fire for Mon 23 Nov, sees the slot
    // delivered and leaves it; payments' daily, due at the same instant, shows the tick ran.
    for (const team of ["checkout", "payments"]) {
      await ledger.jobFirstSeen({ team, kind: "digest", job: "daily" }, JOBS_SEEN_AT);
    }
    clock.at = new Date(ASKED_AT.getTime() + 5_000);
    await ledger.acquireDaemonLease("the test's daemon");
    const clients = createClients(config, { logger: createQuietLogger(), now: () => clock.at });
    const daemon = createDaemon({
      jobs: listJobs(config.teams).filter((job) => job.kind === "digest"),
      ledger,
      runSlot: createJobRunner(clients, ledger),
      logger: createQuietLogger(),
      now: () => clock.at,
    });
    try {
      await daemon.tick();
      await daemon.idle();
    } finally {
      await daemon.stop(1_000);
      await clients.close();
    }
    expect(digestPostsIn(slack, "C0PAYMENTS")).toHaveLength(1);
    expect(digestPostsIn(slack, "C0123ABCD")).toHaveLength(1);
  });

  it("answers a redelivered envelope with what was posted, and posts nothing again", async () => {
    const { slack } = current();
    const first = command("digest checkout daily");
    await current().handler()(first);
    clock().at = new Date(ASKED_AT.getTime() + 60_000);
    // Slack sends the same envelope again when our ack did not reach it.
    const again = command("digest checkout daily", {
      envelopeId: first.envelopeId,
      responseUrl: first.body.response_url,
    });
    await current().handler()({ ...again, retryAttempt: 1 });

    expect(digestPostsIn(slack, "C0123ABCD")).toHaveLength(1);
    const answers = answersTo(first.body.response_url);
    expect(answers).toHaveLength(3);
    expect(answers[2]?.text).toBe(
      "The daily digest of checkout for Nov 23, 2026 (the fire of Tue Nov 24 09:00 CET) was already posted: <#C0123ABCD> at Tue 24 Nov 09:30 Europe/Berlin. It is not posted twice.",
    );
  });

  it("posts once when two replicas get the same command at once", async () => {
    const { slack } = current();
    const replica = current().handler(await current().openLedger());
    const asked = command("digest checkout daily");
    await Promise.all([current().handler()(asked), replica(asked)]);

    expect(digestPostsIn(slack, "C0123ABCD")).toHaveLength(1);
    const texts = answersTo(asked.body.response_url).map((a) => a.text);
    expect(texts.filter((t) => t.startsWith("The daily digest"))).toHaveLength(2);
    expect(texts.filter((t) => t.includes("\u2713 posted to <#C0123ABCD>"))).toHaveLength(1);
  });

  it("takes the team's only digest when none is named, and lists the digests when one must be", async () => {
    const { slack } = current();
    const only = command("digest payments");
    await current().handler()(only);
    expect(digestPostsIn(slack, "C0PAYMENTS")).toHaveLength(1);

    const which = command("digest checkout");
    await current().handler()(which);
    expect(answersTo(which.body.response_url)[0]?.text).toBe(
      "Which digest of `checkout`? `/insights digest checkout <digest>` \u2014 digests: `daily`, `weekly`.",
    );
    const unknown = command("digest checkout hourly");
    await current().handler()(unknown);
    expect(answersTo(unknown.body.response_url)[0]?.text).toBe(
      "Team `checkout` has no digest `hourly`. Its digests: `daily`, `weekly`.",
    );
    expect(digestPostsIn(slack, "C0123ABCD")).toHaveLength(0);
  });

  it("names a destination that failed and why; asked again once it is fixed, it posts", async () => {
    const { slack, ledger } = current();
    slack.failNext("chat.postMessage", "not_in_channel");
    const first = command("digest checkout daily");
    await current().handler()(first);
    const failed = answersTo(first.body.response_url).at(-1);
    expect(failed?.text).toMatch(/\n\u2717 <#C0123ABCD> failed: .*\/invite/);
    expect(failed?.text).toContain("not retried: fix the cause, then ask again");
    const key = "checkout.daily.2026-11-23";
    expect((await ledger.getSlot(key))?.deliveries.map((d) => d.state)).toEqual(["failed"]);
    expect(digestPostsIn(slack, "C0123ABCD")).toHaveLength(0);

    const again = command("digest checkout daily");
    await current().handler()(again);
    expect(answersTo(again.body.response_url).at(-1)?.text).toContain(
      "\u2713 posted to <#C0123ABCD>",
    );
    expect(digestPostsIn(slack, "C0123ABCD")).toHaveLength(1);
    expect(await ledger.isSlotDelivered(key)).toBe(true);
  });

  it("names the teams there are when the team is unknown, and posts nothing", async () => {
    const { slack } = current();
    const asked = command("digest chekout daily");
    await current().handler()(asked);
    expect(answersTo(asked.body.response_url).map((a) => [a.responseType, a.text])).toEqual([
      ["ephemeral", "There is no team `chekout`. Teams: `checkout`, `payments`."],
    ]);
    expect(slack.posts).toHaveLength(0);
  });
});

describe("/insights when something unexpected fails", () => {
  it("tells the asker to look in the log, by envelope, and keeps the error itself out of Slack", async () => {
    const { config, slack } = current();
    const { lines, logger } = captureLogs();
    const failing = createSlashCommandHandler({
      teams: () => config.teams,
      ledger: current().ledger,
      digestNow: async () => {
        throw new Error("connect ECONNREFUSED 10.0.0.5:5432 (db.internal)");
      },
      respond: slackResponder(config.slack.apiUrl),
      logger,
      now: () => current().clock.at,
    });
    const asked = command("digest checkout daily", { envelopeId: "env-broken" });
    await failing(asked);
    const answers = answersTo(asked.body.response_url).map((a) => a.text);
    expect(answers.at(-1)).toBe(
      "That did not work; the reporter's log has the details (envelope env-broken).",
    );
    expect(answers.join("\n")).not.toContain("db.internal");
    expect(slack.posts).toHaveLength(0);
    const failed = lines.find((l) => l.msg === "the Slack command failed");
    expect(failed).toMatchObject({ envelopeId: "env-broken", slackUser: "U0MARIA" });
    expect(String(failed?.err)).toContain("db.internal");
  });
});

describe("/insights status", () => {
  it("answers the asker alone with the alerts firing now and who silenced them until when", async () => {
    const { ledger, emulator } = current();
    const [web, api] = emulator.projects;
    if (!web || !api) throw new Error("no projects");
    const firedAt = new Date("2026-11-23T08:00:00.000Z");
    const state = (scope: string, level: "warn" | "critical", value: number) => ({
      team: "checkout",
      alert: "flaky-rate",
      scope,
      state: level,
      since: firedAt,
      breaches: 1,
      lastValue: value,
      lastNotifiedAt: firedAt,
      firedAt,
      threadKey: "checkout.alert.flaky-rate.2026-11-22",
    });
    await ledger.recordAlertEvaluation({
      slot: {
        key: "checkout.alert.flaky-rate.2026-11-22",
        team: "checkout",
        kind: "alert",
        job: "flaky-rate",
        fireAt: firedAt,
        period: { start: "2026-11-22", end: "2026-11-22" },
        destinations: [],
      },
      alert: "flaky-rate",
      states: [state(api.id, "warn", 3.5), state(web.id, "critical", 7.3)],
      results: [],
      notification: null,
    });
    await ledger.addSilence(
      {
        key: "snooze:test",
        team: "checkout",
        alert: "flaky-rate",
        scope: web.id,
        author: "U0MARIA",
        startsAt: new Date("2026-11-23T10:00:00.000Z"),
        endsAt: new Date("2026-11-25T08:00:00.000Z"),
      },
      new Date("2026-11-23T10:00:00.000Z"),
    );
    await ledger.addSilence(
      {
        key: "snooze:team",
        team: "checkout",
        alert: "flaky-rate",
        scope: "team",
        author: "cli:ops",
        startsAt: new Date("2026-11-23T10:00:00.000Z"),
        endsAt: new Date("2026-11-24T12:00:00.000Z"),
      },
      new Date("2026-11-23T10:00:00.000Z"),
    );

    const asked = command("status checkout");
    await current().handler()(asked);
    const answers = answersTo(asked.body.response_url);
    expect(answers.map((a) => a.responseType)).toEqual(["ephemeral"]);
    expect(answers[0]?.text.split("\n")).toEqual([
      "*checkout*: 2 alerts firing now (Tue 24 Nov 09:30 Europe/Berlin):",
      `\u{1F534} *flaky-rate* critical \u00b7 Checkout web (${web.id}) \u2014 7.3% (critical at 5.0%) since Mon 23 Nov 09:00 Europe/Berlin`,
      "    \u{1F515} snoozed by <@U0MARIA> until Wed 25 Nov 09:00 Europe/Berlin (silence #1)",
      `\u{1F7E0} *flaky-rate* warn \u00b7 ${api.id} \u2014 3.5% (warn at 3.0%) since Mon 23 Nov 09:00 Europe/Berlin`,
      "Silenced, not firing now:",
      "\u2022 *flaky-rate* \u00b7 the whole team \u2014 snoozed by cli:ops until Tue 24 Nov 13:00 Europe/Berlin (silence #2)",
    ]);
    expect(current().slack.posts).toHaveLength(0);
  });

  it("says so when nothing fires", async () => {
    const asked = command("status payments");
    await current().handler()(asked);
    expect(answersTo(asked.body.response_url)[0]?.text).toBe(
      "No alert of *payments* is firing now (Tue 24 Nov 08:30 UTC).",
    );
  });
});

describe("answering at the response URL", () => {
  it("posts only to Slack's own URLs, or to SLACK_API_URL's origin when one is set", () => {
    const fake = "http://127.0.0.1:4567/api/";
    expect(isSlackResponseUrl("https://hooks.slack.com/commands/T0/1/abc", null)).toBe(true);
    expect(isSlackResponseUrl("http://hooks.slack.com/commands/T0/1/abc", null)).toBe(false);
    expect(isSlackResponseUrl("https://hooks.slack.com.evil.example/x", null)).toBe(false);
    expect(isSlackResponseUrl("https://evil.example/hooks.slack.com", null)).toBe(false);
    expect(isSlackResponseUrl("http://127.0.0.1:4567/response/1", fake)).toBe(true);
    expect(isSlackResponseUrl("http://127.0.0.1:9999/response/1", fake)).toBe(false);
    expect(isSlackResponseUrl("not a url", fake)).toBe(false);
  });

  it("refuses any other URL before a request, naming SLACK_API_URL and not the URL", async () => {
    let requests = 0;
    const respond = slackResponder(null, {
      fetch: async () => {
        requests += 1;
        return new Response("ok");
      },
    });
    const answer = respond("https://evil.example/hooks/secret-path", {
      text: "hi",
      responseType: "ephemeral",
    });
    await expect(answer).rejects.toThrow("set SLACK_API_URL to it");
    await expect(answer).rejects.not.toThrow("secret-path");
    expect(requests).toBe(0);
  });
});

describe("/insights help", () => {
  it("shows the usage for help, no subcommand and an unknown one", async () => {
    for (const text of ["help", "", "  snooze all"]) {
      const asked = command(text);
      await current().handler()(asked);
      const [answer] = answersTo(asked.body.response_url);
      expect(answer?.responseType).toBe("ephemeral");
      expect(answer?.text).toContain("*/insights digest <team> [digest]*");
      expect(answer?.text).toContain("*/insights status <team>*");
      if (text.includes("snooze")) expect(answer?.text).toMatch(/^I do not know `snooze`\./);
    }
  });

  it("reads subcommands and their words", () => {
    expect(parseSlashText("  DIGEST  checkout\tdaily ")).toEqual({
      kind: "digest",
      team: "checkout",
      digest: "daily",
      extra: false,
    });
    expect(parseSlashText("status")).toEqual({ kind: "status", team: null, extra: false });
    expect(parseSlashText("status a b")).toEqual({ kind: "status", team: "a", extra: true });
    expect(parseSlashText("")).toEqual({ kind: "help", unknown: null });
  });
});

function clock() {
  return current().clock;
}

function createQuietLogger() {
  return captureLogs().logger;
}
