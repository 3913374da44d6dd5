import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { sep } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { loadConfig } from "../../src/config/load-config.js";
import { type DaemonService, startDaemonService } from "../../src/daemon/daemon-service.js";
import { messageIdForKey } from "../../src/destinations/email/email-message-id.js";
import { openLedger } from "../../src/state/sqlite/open-ledger.js";
import { captureLogs } from "./daemon-harness.js";
import { digestPosts, type LiveSetup, startLiveSetup, waitFor } from "./live-setup.js";

/**
 * The daemon in-process, wired as `start` wires it (ledger, lease, clients, ops server), against
 * the emulator, the fake Slack and a real SMTP server, on the real clock. Only the retry
 * schedule is shortened — 200 ms instead of minutes — through the service's `retryDelaysMs`.
 */

let live: LiveSetup | null = null;
let service: DaemonService | null = null;
afterEach(async () => {
  await service?.stop(5_000);
  service = null;
  await live?.close();
  live = null;
});

async function start(setup: LiveSetup) {
  const config = loadConfig(setup.configPath, { env: setup.env });
  const { lines, logger } = captureLogs();
  service = await startDaemonService(config, { logger, tickMs: 50, retryDelaysMs: [200] });
  return { service, logs: lines };
}

async function emailDelivery(setup: LiveSetup) {
  const ledger = openLedger(setup.ledgerPath);
  try {
    const [slot] = await ledger.history({ limit: 1 });
    return { slot, email: slot?.deliveries.find((d) => d.destination.startsWith("email:")) };
  } finally {
    await ledger.close();
  }
}

describe("the daemon service", () => {
  it("delivers the email on a retry once SMTP is back, without posting to Slack again", async () => {
    live = await startLiveSetup({ email: true });
    const setup = live;
    setup.relay.setDown(true);
    const { service, logs } = await start(setup);

    // Slack and email are sent side by side: the refused SMTP connection can fail before the
    // Slack post lands, so wait for both outcomes.
    await waitFor("the first email failure and the Slack post", async () => {
      const { email } = await emailDelivery(setup);
      return (
        (email?.attempts ?? 0) >= 1 &&
        email?.state === "failed" &&
        digestPosts(setup.slack).length > 0
      );
    });
    expect(digestPosts(setup.slack)).toHaveLength(1);
    expect(setup.smtp.messages).toHaveLength(0);

    setup.relay.setDown(false);
    await waitFor("the email", () => setup.smtp.messages.length > 0);
    await waitFor(
      "the slot to be delivered",
      async () => (await emailDelivery(setup)).slot?.finishedAt,
    );
    const { slot, email } = await emailDelivery(setup);
    expect(email).toMatchObject({ state: "sent" });
    expect(email?.attempts).toBeGreaterThanOrEqual(2);
    expect(digestPosts(setup.slack)).toHaveLength(1);
    expect(setup.smtp.messages).toHaveLength(1);
    expect(setup.smtp.messages[0]?.parsed.messageId).toBe(messageIdForKey(slot?.key ?? ""));
    expect(logs.some((l) => l.msg === "delivery failed" && l.slot === slot?.key)).toBe(true);

    const metrics = await (await fetch(`${service.opsUrl}/metrics`)).text();
    expect(metrics).toMatch(
      /insights_reporter_slots_total\{team="checkout",kind="digest",job="weekly",result="retrying"\} [1-9]/,
    );
    expect(metrics).toMatch(
      /insights_reporter_slots_total\{team="checkout",kind="digest",job="weekly",result="delivered"\} 1/,
    );
    expect(metrics).toMatch(
      /insights_reporter_deliveries_total\{team="checkout",kind="digest",job="weekly",destination="email",result="failed"\} [1-9]/,
    );
    expect(metrics).toMatch(
      /insights_reporter_deliveries_total\{team="checkout",kind="digest",job="weekly",destination="slack",result="sent"\} 1/,
    );
    expect(metrics).toMatch(/insights_reporter_api_requests_total\{status="200"\} [1-9]/);
    expect(metrics).toMatch(/insights_reporter_api_request_duration_seconds_count [1-9]/);
    expect(metrics).toMatch(
      /insights_reporter_last_success_timestamp_seconds\{team="checkout",kind="digest",job="weekly"\} \d/,
    );
    expect(metrics).toMatch(
      /insights_reporter_slot_lag_seconds_count\{team="checkout",kind="digest",job="weekly"\} 1/,
    );
  });

  it("schedules configured alerts beside the digests, and no longer says they are not evaluated", async () => {
    live = await startLiveSetup();
    const raw = parse(readFileSync(live.configPath, "utf8"));
    raw.teams[0].alerts = [
      {
        name: "flaky-rate",
        metric: "flaky_rate",
        window: "previous_day",
        schedule: "0 9 * * *",
        warn_at: 3,
        critical_at: 5,
        clear_at: 2.5,
        slack: { channel: "C0123ABCD" },
      },
    ];
    writeFileSync(live.configPath, stringify(raw));
    const { logs } = await start(live);
    const started = logs.find((l) => l.msg === "daemon started");
    expect(started?.jobs).toContain("checkout/alert/flaky-rate");
    expect(logs.some((l) => String(l.msg).includes("not evaluated"))).toBe(false);
  });

  it("has exceljs loaded by the time it says it started when a digest attaches a workbook", async () => {
    live = await startLiveSetup({ attachXlsx: true });
    const { logs } = await start(live);
    const started = logs.find((l) => l.msg === "daemon started");
    expect(started?.preloaded).toEqual(["exceljs"]);
    const loaded = Object.keys(createRequire(import.meta.url).cache);
    expect(loaded.some((path) => path.includes(`${sep}exceljs${sep}`))).toBe(true);
  });

  it("leaves exceljs unloaded at start when no digest attaches a workbook", async () => {
    live = await startLiveSetup();
    const { logs } = await start(live);
    expect(logs.find((l) => l.msg === "daemon started")?.preloaded).toEqual([]);
  });

  it("answers /healthz and /readyz", async () => {
    live = await startLiveSetup();
    const { service } = await start(live);
    const health = await fetch(`${service.opsUrl}/healthz`);
    expect(health.status).toBe(200);
    const ready = await waitFor("ready", async () => {
      const response = await fetch(`${service.opsUrl}/readyz`);
      return response.status === 200 ? response.json() : null;
    });
    expect(ready).toMatchObject({
      status: "ready",
      checks: { config: { ok: true }, ledger: { ok: true }, scheduler: { ok: true } },
    });
    expect((await fetch(`${service.opsUrl}/nope`)).status).toBe(404);
  });

  it('answers /readyz 503 "stopping" while it waits for a delivery in flight', async () => {
    live = await startLiveSetup();
    const held = live.slack.holdNext("chat.postMessage");
    const { service } = await start(live);
    await held.arrived;
    const stopped = service.stop(5_000);
    const response = await fetch(`${service.opsUrl}/readyz`);
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({
      checks: { scheduler: { ok: false, detail: "stopping" } },
    });
    held.release();
    await stopped;
    expect(digestPosts(live.slack)).toHaveLength(1);
  });

  it("refuses a second daemon on the same ledger, naming the fix", async () => {
    live = await startLiveSetup();
    await start(live);
    const config = loadConfig(live.configPath, { env: live.env });
    await expect(startDaemonService(config, { logger: captureLogs().logger })).rejects.toThrow(
      /is in use by another daemon: .* — stop the other daemon, or point state\.path elsewhere/,
    );
  });

  it("applies a reloaded config's schedules, and says which sections need a restart", async () => {
    live = await startLiveSetup();
    const { slack } = live;
    const { service, logs } = await start(live);
    const config = loadConfig(live.configPath, {
      env: { ...live.env, SLACK_BOT_TOKEN: "xoxb-other" },
    });
    const renamed = { ...config, teams: config.teams.map((t) => ({ ...t, name: "payments" })) };
    service.reload(renamed);
    expect(logs).toContainEqual(
      expect.objectContaining({ msg: "config reloaded", jobs: ["payments/digest/weekly"] }),
    );
    expect(logs).toContainEqual(expect.objectContaining({ sections: ["slack"] }));
    expect(JSON.stringify(logs)).not.toContain("xoxb-other");
    // The new job is scheduled: its first fire is due now, and it posts under its own key.
    await waitFor("the renamed team's digest", () =>
      digestPosts(slack).some((p) =>
        String(p.metadata?.event_payload.key).startsWith("payments.weekly."),
      ),
    );
  });
  it("fetches the settled days of the next fire into the day store while idle, before anything is due", async () => {
    // One weekly digest (charts over 8 weeks) firing 12 hours from now: nothing is due.
    const hour = Number(
      new Intl.DateTimeFormat("en-GB", {
        timeZone: "Europe/Berlin",
        hour: "2-digit",
        hourCycle: "h23",
      }).format(new Date()),
    );
    live = await startLiveSetup({
      digests: [
        {
          name: "weekly",
          schedule: `0 ${(hour + 12) % 24} * * *`,
          period: "previous_week",
          charts: { window: "8w" },
          slack: { channel: "C0123ABCD" },
        },
      ],
    });
    const raw = parse(readFileSync(live.configPath, "utf8"));
    raw.history = { prefetch: { max_requests_per_minute: 600 } };
    writeFileSync(live.configPath, stringify(raw));
    const { logs } = await start(live);

    const pass = await waitFor("a prefetch pass", () =>
      logs.find((l) => l.msg === "prefetched settled days of the next fires into the day store"),
    );
    expect(pass).toMatchObject({ finished: true, leftToOthers: 0 });
    // Every request was the prefetch's, each for days before the fire's recent ones.
    const asked = live.emulator.requestLog.filter((r) => r.path.endsWith("/insights"));
    expect(asked).toHaveLength(Number(pass.requests));
    expect(asked.length).toBeGreaterThanOrEqual(2);
    expect(digestPosts(live.slack)).toHaveLength(0);
  });
});
