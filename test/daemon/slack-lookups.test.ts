import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load-config.js";
import { type DaemonService, startDaemonService } from "../../src/daemon/daemon-service.js";
import { openLedger } from "../../src/state/sqlite/open-ledger.js";
import { captureLogs } from "./daemon-harness.js";
import { digestPosts, type LiveSetup, startLiveSetup, waitFor } from "./live-setup.js";

/**
 * When the daemon looks in a Slack channel (conversations.history) before posting: only when
 * the ledger cannot say whether the post went out — after an attempt whose outcome is unknown,
 * or for a slot older than the ledger itself — and then once per channel per tick.
 */

let live: LiveSetup | null = null;
let service: DaemonService | null = null;
afterEach(async () => {
  await service?.stop(5_000);
  service = null;
  await live?.close();
  live = null;
});

const HOUR = 3_600_000;

/** Records when the ledger first saw each digest, as a ledger of long standing (or a new one) would. */
async function firstSeen(setup: LiveSetup, jobs: string[], at: Date): Promise<void> {
  const ledger = openLedger(setup.ledgerPath);
  try {
    for (const job of jobs)
      await ledger.jobFirstSeen({ team: "checkout", kind: "digest", job }, at);
  } finally {
    await ledger.close();
  }
}

async function start(setup: LiveSetup) {
  const config = loadConfig(setup.configPath, { env: setup.env });
  const { lines, logger } = captureLogs();
  service = await startDaemonService(config, { logger, tickMs: 50, retryDelaysMs: [200] });
  return { service, logs: lines };
}

const lookups = (setup: LiveSetup) =>
  setup.slack.calls.filter((c) => c.method === "conversations.history");

const slotsDone = (setup: LiveSetup, count: number) => async () => {
  const ledger = openLedger(setup.ledgerPath);
  try {
    const slots = await ledger.history({ limit: 10 });
    return slots.filter((s) => s.finishedAt !== null).length >= count;
  } finally {
    await ledger.close();
  }
};

describe("looking in the Slack channel before a post", () => {
  it("does not look before a steady-state digest's first attempt", async () => {
    live = await startLiveSetup();
    await firstSeen(live, ["weekly"], new Date(Date.now() - 2 * HOUR));
    await start(live);
    await waitFor("the digest", slotsDone(live, 1));
    expect(digestPosts(live.slack)).toHaveLength(1);
    expect(lookups(live)).toEqual([]);
  });

  it("looks before the attempt after one whose outcome is unknown (a 500 from Slack)", async () => {
    live = await startLiveSetup({ sendTimeout: "1s" });
    await firstSeen(live, ["weekly"], new Date(Date.now() - 2 * HOUR));
    live.slack.failNext("chat.postMessage", "http500");
    await start(live);
    await waitFor("the digest", slotsDone(live, 1));
    expect(digestPosts(live.slack)).toHaveLength(1);
    const firstPost = live.slack.calls.findIndex((c) => c.method === "chat.postMessage");
    const firstLook = live.slack.calls.findIndex((c) => c.method === "conversations.history");
    expect(firstLook).toBeGreaterThan(firstPost);
    expect(lookups(live)).toHaveLength(1);
  });

  it("looks, once per channel, for slots older than the ledger (lost or restored)", async () => {
    const digests = ["a", "b", "c"].map((name) => ({
      name,
      schedule: "* * * * *",
      period: "previous_week",
      catch_up: "1h",
      slack: { channel: "C0123ABCD" },
    }));
    live = await startLiveSetup({ digests });
    // The ledger is newer than every slot due now: whether they went out, only Slack knows.
    await firstSeen(live, ["a", "b", "c"], new Date(Date.now() + HOUR));
    await start(live);
    await waitFor("three digests", slotsDone(live, 3));
    expect(digestPosts(live.slack)).toHaveLength(3);
    expect(lookups(live)).toHaveLength(1);
  });
});
