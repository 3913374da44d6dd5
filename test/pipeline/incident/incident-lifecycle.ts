import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AlertConfig, ResolvedConfig, Team } from "../../../src/config/types.js";
import { claimingLedger } from "../../../src/deliver/claiming-ledger.js";
import { slackOnFirstUse } from "../../../src/destinations/slack/slack-on-first-use.js";
import { createLogger } from "../../../src/logger.js";
import type { AlertNotification } from "../../../src/messages.js";
import { alertSlot } from "../../../src/pipeline/alert/alert-slot.js";
import {
  type IncidentDeps,
  incidentKey,
  runIncidents,
} from "../../../src/pipeline/incident/run-incidents.js";
import { Secret } from "../../../src/secret.js";
import type { Ledger } from "../../../src/state/ledger.js";
import { openLedger } from "../../../src/state/sqlite/open-ledger.js";
import { configText, parse } from "../../config/config-builders.js";
import {
  FAKE_SLACK_TOKEN,
  type FakeSlack,
  startFakeSlack,
} from "../../fake-slack/fake-slack-server.js";

// The incident step over a real ledger and the fake Slack (issue 38 item 3): three projects in
// two teams fired at one instant form one incident; it resolves — its post edited green, a
// reply under it — only when its last member stops firing, and only once.

const INCIDENTS = "C0123ABCD";
const DAY = 86_400_000;
const F1 = new Date("2026-11-16T08:00:00.000Z");
const at = (days: number) => new Date(F1.getTime() + days * DAY);

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

function config(): ResolvedConfig {
  const result = parse(
    configText({
      "teams[0].alerts[0]": {
        name: "runs-low",
        schedule: "0 9 * * *",
        metric: "runs",
        warn_at: 150,
        critical_at: 100,
        clear_at: 200,
        slack: { channel: "C0ALERTS" },
      },
      "teams[1].alerts": [
        {
          name: "flaky-rate",
          schedule: "0 3 * * *",
          warn_at: 3,
          critical_at: 5,
          clear_at: 2.5,
          slack: { channel: "C0ALERTS" },
        },
      ],
      incidents: { slack: { channel: INCIDENTS } },
    }),
  );
  if (!("config" in result)) throw new Error(JSON.stringify(result.issues));
  return result.config;
}

/** A ledger of the store under test, new for each test. */
export type OpenLedger = () => Promise<Ledger>;

/** An SQLite ledger in a temporary directory. */
export const sqliteLedger: OpenLedger = async () => {
  const dir = mkdtempSync(join(tmpdir(), "incident-"));
  cleanup.push(async () => rmSync(dir, { recursive: true, force: true }));
  return openLedger(join(dir, "ledger.sqlite"));
};

async function setUp(open: OpenLedger) {
  const ledger = await open();
  const slack = await startFakeSlack();
  cleanup.push(async () => {
    await ledger.close();
    await slack.close();
  });
  const logger = createLogger({ level: "silent" });
  const clients = slackOnFirstUse(
    { token: new Secret(FAKE_SLACK_TOKEN), apiUrl: slack.url, appToken: null },
    logger,
  );
  if (!clients) throw new Error("no Slack clients");
  cleanup.push(() => clients.close());
  const resolved = config();
  const alerts = resolved.teams.map((team) => ({ team, alert: team.alerts[0] as AlertConfig }));
  const deps: IncidentDeps = {
    config: {
      minProjects: 3,
      slack: { channel: INCIDENTS },
      email: null,
      msteams: null,
      webhook: null,
      pagerduty: null,
    },
    ledger,
    deliveries: claimingLedger(ledger, { owner: "test", sendTimeoutMs: 10_000, take: "due" }),
    slack: clients,
    clients: { slack: clients.alert, email: null, msteams: null, webhook: null, pagerduty: null },
    logger,
  };
  return { ledger, slack, clients, alerts, deps };
}

type Setup = Awaited<ReturnType<typeof setUp>>;

/**
 * Records an alert's evaluation at `fire` with each scope's state (firing ones under the
 * evaluation that fired them), and, when it fired, its message posted and sent as the daemon would.
 */
async function evaluated(
  s: Setup,
  { team, alert }: { team: Team; alert: AlertConfig },
  fire: Date,
  scopes: { scope: string; firing: boolean; fired: boolean; threadKey?: string }[],
): Promise<string> {
  const { key, window } = alertSlot({ team, alert, fireAt: fire });
  const channel = alert.slack?.channel as string;
  const fired = scopes.some((sc) => sc.fired);
  const text = `${team.name} ${alert.name} fired`;
  const notification: AlertNotification | null = fired
    ? {
        slack: {
          channel,
          post: {
            main: { text, blocks: [{ type: "section", text: { type: "plain_text", text } }] },
            metadata: { event_type: "insights_alert", event_payload: { key } },
            thread: [],
          },
          threadKey: null,
          updates: [],
        },
        email: null,
        msteams: null,
        webhook: null,
        pagerduty: null,
      }
    : null;
  await s.ledger.recordAlertEvaluation({
    slot: {
      key,
      team: team.name,
      kind: "alert",
      job: alert.name,
      fireAt: fire,
      period: window,
      destinations: fired ? [`slack:${channel}`] : [],
    },
    alert: alert.name,
    states: scopes.map((sc) => ({
      team: team.name,
      alert: alert.name,
      scope: sc.scope,
      state: sc.firing ? "critical" : "ok",
      since: fire,
      breaches: sc.firing ? 1 : 0,
      lastValue: 9,
      lastNotifiedAt: fire,
      firedAt: sc.firing ? fire : null,
      threadKey: sc.firing ? (sc.threadKey ?? key) : null,
    })),
    results: scopes.map((sc) => ({
      scope: sc.scope,
      name: sc.scope.toUpperCase(),
      value: 9,
      size: 10,
      verdict: sc.firing ? "critical" : "ok",
      state: sc.firing ? "critical" : "ok",
      transition: sc.fired ? "fired" : sc.firing ? null : "resolved",
    })),
    notification,
  });
  if (notification?.slack) {
    const posted = await s.clients.alert.postAlert(channel, notification.slack.post, null);
    await sent(s.ledger, key, `slack:${channel}`, posted.ts);
  }
  return key;
}

async function sent(ledger: Ledger, key: string, destination: string, slackTs: string) {
  const claim = await ledger.claimDelivery(key, destination, {
    owner: "test",
    sendTimeoutMs: 10_000,
    take: "due",
  });
  if (!claim.claimed) throw new Error("not claimed");
  await ledger.markSent(key, destination, { ref: slackTs }, claim.token);
}

const incidentPosts = (slack: FakeSlack) =>
  slack.posts.filter((p) => p.channel === INCIDENTS && p.thread_ts === null);
const repliesTo = (slack: FakeSlack, ts: string | undefined) =>
  slack.posts.filter((p) => p.channel === INCIDENTS && p.thread_ts === ts);

/** The incident step's lifecycle over the ledger `open` makes. */
export function describeIncidentLifecycle(store: string, open: OpenLedger): void {
  describe(`the incident step on ${store}`, () => {
    it("3 projects in 2 teams: one incident, members threaded, team messages linking it; resolved with its last member, once", async () => {
      const s = await setUp(open);
      const [checkout, payments] = s.alerts as [(typeof s.alerts)[0], (typeof s.alerts)[0]];
      const fireA = await evaluated(s, checkout, F1, [
        { scope: "pdqmxlz", firing: true, fired: true },
        { scope: "qwhtzrn", firing: true, fired: true },
      ]);
      const fireB = await evaluated(s, payments, F1, [
        { scope: "mvbkqfe", firing: true, fired: true },
      ]);

      expect(await runIncidents(F1, s.alerts, s.deps)).toBe("done");
      // A second replica reaching the same instant posts nothing more.
      expect(await runIncidents(F1, s.alerts, s.deps)).toBe("done");
      const [incident, ...others] = incidentPosts(s.slack);
      expect(others).toEqual([]);
      expect(incident?.text).toBe(
        "🚨 Incident: 3 projects in 2 teams: flaky rate up, runs down — likely shared CI",
      );
      expect(repliesTo(s.slack, incident?.ts).map((r) => r.text)).toEqual([
        "checkout · runs-low · PDQMXLZ: 9",
        "checkout · runs-low · QWHTZRN: 9",
        "payments · flaky-rate · MVBKQFE: 9.0%",
      ]);
      const key = incidentKey(F1);
      for (const own of s.slack.posts.filter((p) => p.channel === "C0ALERTS")) {
        expect(JSON.stringify(own.blocks)).toContain(`Part of incident ${key} in ${INCIDENTS}`);
        expect(own.edits).toBe(1);
      }
      expect((await s.ledger.getSlot(key))?.kind).toBe("incident");

      // Day 2: checkout's projects resolve, payments' still fires: the incident stays open.
      await evaluated(s, checkout, at(1), [
        { scope: "pdqmxlz", firing: false, fired: false },
        { scope: "qwhtzrn", firing: false, fired: false },
      ]);
      await evaluated(s, payments, at(1), [
        { scope: "mvbkqfe", firing: true, fired: false, threadKey: fireB },
      ]);
      expect(await runIncidents(at(1), s.alerts, s.deps)).toBe("done");
      expect(incident?.edits).toBeUndefined();
      expect((await s.ledger.getIncident(key))?.resolvedBy).toBeNull();

      // Day 3: the last member resolves: the incident's post goes green, with one reply.
      await evaluated(s, checkout, at(2), [
        { scope: "pdqmxlz", firing: false, fired: false },
        { scope: "qwhtzrn", firing: false, fired: false },
      ]);
      await evaluated(s, payments, at(2), [{ scope: "mvbkqfe", firing: false, fired: false }]);
      expect(await runIncidents(at(2), s.alerts, s.deps)).toBe("done");
      expect(await runIncidents(at(2), s.alerts, s.deps)).toBe("done");
      expect(incident?.text).toBe(
        "✅ Resolved incident: 3 projects in 2 teams: flaky rate up, runs down — likely shared CI",
      );
      expect(incident?.edits).toBe(1);
      const replies = repliesTo(s.slack, incident?.ts);
      expect(replies.map((r) => r.text).slice(3)).toEqual([
        "✅ Resolved: all 3 members are back to normal.",
      ]);
      expect((await s.ledger.getIncident(key))?.resolvedBy).toBe(`${key}.resolved`);
      expect(fireA).not.toBe(fireB);
    });

    it("waits while an alert due at the instant is not recorded yet", async () => {
      const s = await setUp(open);
      const [checkout] = s.alerts as [(typeof s.alerts)[0]];
      await evaluated(s, checkout, F1, [
        { scope: "pdqmxlz", firing: true, fired: true },
        { scope: "qwhtzrn", firing: true, fired: true },
      ]);
      expect(await runIncidents(F1, s.alerts, s.deps)).toBe("waiting");
      expect(incidentPosts(s.slack)).toEqual([]);
    });
  });
}
