import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AlertConfig, IncidentsConfig } from "../../src/config/types.js";
import { deliverAll } from "../../src/deliver/deliver-all.js";
import { noClients } from "../../src/destinations/registry.js";
import { slackOnFirstUse } from "../../src/destinations/slack/slack-on-first-use.js";
import { createLogger } from "../../src/logger.js";
import type { AlertNotification, SlackPost } from "../../src/messages.js";
import { alertSlot } from "../../src/pipeline/alert/alert-slot.js";
import { incidentKey } from "../../src/pipeline/incident/run-incidents.js";
import { listJobs } from "../../src/scheduler/jobs.js";
import { createIncidentStep } from "../../src/scheduler/run-slot.js";
import { createDaemon, type RunSlot } from "../../src/scheduler/scheduler.js";
import { Secret } from "../../src/secret.js";
import type { Ledger } from "../../src/state/ledger.js";
import { openLedger } from "../../src/state/sqlite/open-ledger.js";
import {
  FAKE_SLACK_TOKEN,
  type FakeSlack,
  startFakeSlack,
} from "../fake-slack/fake-slack-server.js";
import { aTeam } from "./daemon-harness.js";

// An incident whose send a daemon's process stopped in the middle of is posted once by the
// next daemon on the same ledger, once the send timeout has passed: nothing of the first
// process is left but the ledger (its fire instants were in its memory), and a post that had
// landed before the process stopped is found in the channel, not posted twice.

const INCIDENTS = "C0INCIDENTS";
const ALERTS = "C0ALERTS";
const FIRE = Date.parse("2026-11-16T08:00:00.000Z"); // 09:00 in Berlin
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const RESOLVED = "✅ Resolved: all 3 members are back to normal.";
const SEND_TIMEOUT_MS = 5 * MINUTE;
const PROJECTS = ["pdqmxlz", "qwhtzrn", "mvbkqfe"];

let cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

const alert = {
  name: "runs-low",
  schedule: "0 9 * * *",
  window: "previous_day",
  metric: "runs",
  warnAt: 150,
  criticalAt: 100,
  clearAt: 200,
  scope: "projects",
  catchUpMs: 60 * MINUTE,
  chart: false,
  slack: { channel: ALERTS },
} as unknown as AlertConfig;
const team = aTeam({
  digests: [],
  alerts: [alert],
  projects: PROJECTS.map((id) => ({
    id,
    name: null,
    branch: null,
    author: null,
    tags: [],
    owners: [],
  })),
});
const incidents: IncidentsConfig = {
  minProjects: 3,
  slack: { channel: INCIDENTS },
  email: null,
  msteams: null,
  webhook: null,
  pagerduty: null,
};

async function setUp() {
  const dir = mkdtempSync(join(tmpdir(), "incident-stopped-"));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  const clock = { now: FIRE };
  const now = () => new Date(clock.now);
  // The ledger's clock is the test's: a send's claim goes stale by it, as by the daemon's.
  const store = openLedger(join(dir, "ledger.sqlite"), { now });
  cleanup.push(() => store.close());
  const slack = await startFakeSlack({
    channels: [
      { id: ALERTS, name: "checkout-alerts" },
      { id: INCIDENTS, name: "incidents" },
    ],
  });
  cleanup.push(() => slack.close());
  const logger = createLogger({ level: "silent" });
  const clients = slackOnFirstUse(
    { token: new Secret(FAKE_SLACK_TOKEN), apiUrl: slack.url, appToken: null },
    logger,
  );
  if (!clients) throw new Error("no Slack clients");
  cleanup.push(() => clients.close());

  /**
   * The alert's run: every project fires, and its own message is posted in its channel; once
   * `alerts.firing` is false, every project is back to normal, and nothing is posted.
   */
  const alerts = { firing: true };
  /**
   * Records the alert's evaluation at `fireAt`: every project critical (fired, its message the
   * notification's, owed to the alerts channel) or ok (resolved, nothing to send).
   */
  const recordEvaluation = (
    job: string,
    fireAt: Date,
    outcome: { state: "ok" | "critical"; value: number; notification: AlertNotification | null },
  ) => {
    const { key, window } = alertSlot({ team, alert, fireAt });
    const fired = outcome.state === "critical";
    return store.recordAlertEvaluation({
      slot: {
        key,
        team: team.name,
        kind: "alert",
        job,
        fireAt,
        period: window,
        destinations: fired ? [`slack:${ALERTS}`] : [],
      },
      alert: alert.name,
      states: PROJECTS.map((scope) => ({
        team: team.name,
        alert: alert.name,
        scope,
        state: outcome.state,
        since: fireAt,
        breaches: fired ? 1 : 0,
        lastValue: outcome.value,
        lastNotifiedAt: fireAt,
        firedAt: fired ? fireAt : null,
        threadKey: fired ? key : null,
      })),
      results: PROJECTS.map((scope) => ({
        scope,
        name: scope.toUpperCase(),
        value: outcome.value,
        size: 10,
        verdict: outcome.state,
        state: outcome.state,
        transition: fired ? "fired" : "resolved",
      })),
      notification: outcome.notification,
    });
  };
  const runSlot: RunSlot = async (job, fireAt, context) => {
    const { key } = alertSlot({ team, alert, fireAt });
    if (!alerts.firing) {
      await recordEvaluation(job.name, fireAt, { state: "ok", value: 900, notification: null });
      return { key, deliveries: [] };
    }
    const text = `${team.name} ${alert.name} fired`;
    const post: SlackPost = {
      main: { text, blocks: [{ type: "section", text: { type: "plain_text", text } }] },
      metadata: { event_type: "insights_alert", event_payload: { key } },
      thread: [],
    };
    const notification = {
      slack: { channel: ALERTS, post, threadKey: null, updates: [] },
      email: null,
      msteams: null,
      webhook: null,
      pagerduty: null,
    } as AlertNotification;
    await recordEvaluation(job.name, fireAt, { state: "critical", value: 9, notification });
    const deliveries = await deliverAll(
      key,
      [
        {
          id: `slack:${ALERTS}`,
          send: async () => ({ ref: (await clients.alert.postAlert(ALERTS, post, null)).ts }),
        },
      ],
      context,
    );
    return { key, deliveries };
  };

  /**
   * A daemon of its own process (its fire instants in its memory only) on the ledger as that
   * process reaches it; each tick waits for every run it started.
   */
  const daemon = (through: Ledger = store) => {
    const d = createDaemon({
      jobs: listJobs([team]),
      ledger: through,
      runSlot,
      incidents: createIncidentStep(
        incidents,
        {
          digests: { ...noClients(), slack: clients.digest },
          alerts: { ...noClients(), slack: clients.alert },
        },
        through,
      ),
      logger,
      now,
      sendTimeoutMs: SEND_TIMEOUT_MS,
      owner: "a daemon",
    });
    cleanup.push(() => d.stop(0));
    return {
      async tick(at: number) {
        // A stopped process ticks no more (a slot's run may have reached the stop within
        // the tick before, as it ends within the tick that launched it).
        if (stoppedLedgers.has(through)) return;
        clock.now = at;
        await store.acquireDaemonLease("test daemon");
        await d.tick();
        await d.idle();
      },
      stop: () => d.stop(0),
    };
  };
  return { store, slack, daemon, alerts };
}

/**
 * The ledger of a process that stops at the first call `at` matches: every call from then on
 * throws (`before`: that call too, never made), as a killed process makes no more.
 */
function stopsAt(
  store: Ledger,
  at: (name: string, args: unknown[]) => boolean,
  before = false,
): Ledger {
  let stopped = false;
  const ledger: Ledger = new Proxy(store, {
    get(target, name) {
      const value: unknown = Reflect.get(target, name);
      if (typeof value !== "function") return value;
      return async (...args: unknown[]) => {
        if (stopped) throw new Error("the process stopped here");
        if (at(String(name), args)) {
          stopped = true;
          stoppedLedgers.add(ledger);
          if (before) throw new Error("the process stopped here");
        }
        return value.apply(target, args);
      };
    },
  });
  return ledger;
}

/** The ledgers of `stopsAt` whose process has stopped. */
const stoppedLedgers = new WeakSet<Ledger>();

const ofIncident = (args: unknown[]) => String(args[0]).startsWith("incident.");

/** The incident posts (top level, in the incidents channel), each with its replies. */
const incidentThreads = (slack: FakeSlack) =>
  slack.posts
    .filter((p) => p.channel === INCIDENTS && p.thread_ts === null)
    .map((post) => ({
      post,
      replies: slack.posts.filter((r) => r.channel === INCIDENTS && r.thread_ts === post.ts),
    }));

async function expectOneIncident(slack: FakeSlack): Promise<void> {
  const threads = incidentThreads(slack);
  expect(threads).toHaveLength(1);
  const [{ post, replies }] = threads as [(typeof threads)[number]];
  expect(post.metadata?.event_payload.key).toBe(incidentKey(new Date(FIRE)));
  expect(replies.map((r) => r.text)).toEqual([
    "checkout · runs-low · MVBKQFE: 9",
    "checkout · runs-low · PDQMXLZ: 9",
    "checkout · runs-low · QWHTZRN: 9",
  ]);
  // The team's own message names the incident, edited once.
  const [own, ...more] = slack.posts.filter((p) => p.channel === ALERTS);
  expect(more).toEqual([]);
  expect(JSON.stringify(own?.blocks)).toContain(`Part of incident ${incidentKey(new Date(FIRE))}`);
  expect(own?.edits).toBe(1);
}

describe("an incident whose daemon stopped mid-send", () => {
  it("in steady state, is posted without reading the channel first (the ledger knows it is new)", async () => {
    const { slack, daemon } = await setUp();
    const only = daemon();
    await only.tick(FIRE + 30_000); // the alert runs
    await only.tick(FIRE + MINUTE); // the incident step
    await expectOneIncident(slack);
    const reads = slack.calls.filter((c) =>
      ["conversations.history", "conversations.replies"].includes(c.method),
    );
    expect(reads).toEqual([]);
    await only.stop();
  });

  it("claimed by a daemon whose process stopped right after, is posted once by the next daemon after the send timeout", async () => {
    const { store, slack, daemon } = await setUp();
    const first = daemon(
      stopsAt(store, (name, args) => name === "claimDelivery" && ofIncident(args)),
    );
    await first.tick(FIRE + 30_000); // the alert runs
    const claimedAt = FIRE + MINUTE;
    await first.tick(claimedAt); // the incident step: recorded, claimed, and the process stops
    await first.stop();
    expect(incidentThreads(slack)).toEqual([]);
    const key = incidentKey(new Date(FIRE));
    expect((await store.getSlot(key))?.deliveries.map((d) => d.state)).toEqual(["sending"]);

    const next = daemon();
    await next.tick(claimedAt + SEND_TIMEOUT_MS - MINUTE);
    expect(incidentThreads(slack)).toEqual([]);
    await next.tick(claimedAt + SEND_TIMEOUT_MS + MINUTE);
    await expectOneIncident(slack);
    expect((await store.getSlot(key))?.deliveries.map((d) => d.state)).toEqual(["sent"]);

    // Later ticks find nothing owed: it went once.
    await next.tick(claimedAt + 90 * MINUTE);
    await expectOneIncident(slack);
  });

  it("posted by a daemon whose process stopped before recording the post, is found by the next daemon and finished, not posted twice", async () => {
    const { store, slack, daemon } = await setUp();
    const first = daemon(
      stopsAt(
        store,
        (name, args) => name === "recordPart" && ofIncident(args) && args[2] === "post",
        true,
      ),
    );
    await first.tick(FIRE + 30_000);
    const claimedAt = FIRE + MINUTE;
    await first.tick(claimedAt);
    await first.stop();
    // The post landed, its thread did not: the process stopped before it recorded the post.
    expect(incidentThreads(slack).map((t) => t.replies)).toEqual([[]]);

    const next = daemon();
    await next.tick(claimedAt + SEND_TIMEOUT_MS + MINUTE);
    await expectOneIncident(slack);
    await next.tick(claimedAt + 90 * MINUTE);
    await expectOneIncident(slack);
  });

  it("resolved by a daemon whose process stopped before recording its reply, is found by the next daemon, not replied twice", async () => {
    const { store, slack, daemon, alerts } = await setUp();
    const resolvedKey = `${incidentKey(new Date(FIRE))}.resolved`;
    const first = daemon(
      stopsAt(
        store,
        (name, args) => name === "recordPart" && args[0] === resolvedKey && args[2] === "reply",
        true,
      ),
    );
    await first.tick(FIRE + 30_000);
    await first.tick(FIRE + MINUTE);
    await expectOneIncident(slack);
    // The next day every project is back to normal: the incident resolves.
    alerts.firing = false;
    const nextFire = FIRE + DAY;
    await first.tick(nextFire + 30_000);
    const claimedAt = nextFire + MINUTE;
    await first.tick(claimedAt);
    await first.stop();
    // The post was edited and the reply landed; the process stopped before recording the reply.
    const [thread] = incidentThreads(slack);
    expect(thread?.post.edits).toBe(1);
    expect(thread?.replies.map((r) => r.text).slice(3)).toEqual([RESOLVED]);
    expect((await store.getSlot(resolvedKey))?.deliveries.map((d) => d.state)).toEqual(["sending"]);

    const next = daemon();
    await next.tick(claimedAt + SEND_TIMEOUT_MS + MINUTE);
    await next.tick(claimedAt + 90 * MINUTE);
    const threads = incidentThreads(slack);
    expect(threads).toHaveLength(1);
    expect(threads[0]?.post.text).toMatch(/^✅ Resolved incident: /);
    expect(threads[0]?.post.edits).toBe(1);
    expect(threads[0]?.replies.map((r) => r.text).slice(3)).toEqual([RESOLVED]);
    expect((await store.getSlot(resolvedKey))?.deliveries.map((d) => d.state)).toEqual(["sent"]);
  });

  it("recorded by a daemon whose process stopped before claiming its send, is posted once by the next daemon", async () => {
    const { store, slack, daemon } = await setUp();
    const first = daemon(stopsAt(store, (name) => name === "recordIncident"));
    await first.tick(FIRE + 30_000);
    await first.tick(FIRE + MINUTE);
    await first.stop();
    expect(incidentThreads(slack)).toEqual([]);

    const next = daemon();
    await next.tick(FIRE + 2 * MINUTE);
    await expectOneIncident(slack);
    await next.tick(FIRE + 90 * MINUTE);
    await expectOneIncident(slack);
  });

  it("resolved by a daemon whose process stopped before claiming its send, is resolved once by the next daemon", async () => {
    const { store, slack, daemon, alerts } = await setUp();
    const first = daemon(stopsAt(store, (name) => name === "resolveIncident"));
    await first.tick(FIRE + 30_000);
    await first.tick(FIRE + MINUTE);
    await expectOneIncident(slack);
    alerts.firing = false;
    await first.tick(FIRE + DAY + 30_000);
    await first.tick(FIRE + DAY + MINUTE);
    await first.stop();
    expect(incidentThreads(slack)[0]?.post.edits).toBeUndefined();

    const next = daemon();
    await next.tick(FIRE + DAY + 2 * MINUTE);
    await next.tick(FIRE + DAY + 90 * MINUTE);
    const threads = incidentThreads(slack);
    expect(threads).toHaveLength(1);
    expect(threads[0]?.post.text).toMatch(/^✅ Resolved incident: /);
    expect(threads[0]?.post.edits).toBe(1);
    expect(threads[0]?.replies.map((r) => r.text).slice(3)).toEqual([RESOLVED]);
  });
});
