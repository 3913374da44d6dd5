import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AlertConfig, ResolvedConfig, Team } from "../../src/config/types.js";
import { claimingLedger } from "../../src/deliver/claiming-ledger.js";
import { messageIdForKey } from "../../src/destinations/email/email-message-id.js";
import { DESTINATIONS } from "../../src/destinations/registry.js";
import { webhookBodySchema } from "../../src/destinations/webhook/messages/webhook-body-schema.js";
import { createLogger } from "../../src/logger.js";
import { alertSlot } from "../../src/pipeline/alert/alert-slot.js";
import {
  type IncidentDeps,
  incidentKey,
  runIncidents,
} from "../../src/pipeline/incident/run-incidents.js";
import type { Ledger } from "../../src/state/ledger.js";
import { openLedger } from "../../src/state/sqlite/open-ledger.js";
import { configText, fullEnv, parse } from "../config/config-builders.js";
import {
  FAKE_ROUTING_KEY,
  type FakeEventsApi,
  startFakeEventsApi,
} from "../fake-pagerduty/fake-events-api.js";
import {
  FAKE_WEBHOOK_SECRET,
  type FakeReceiver,
  startFakeReceiver,
} from "../fake-webhooks/fake-receiver.js";
import { type FakeTeams, startFakeTeams } from "../fake-webhooks/fake-teams.js";
import { startSmtpServer, type TestSmtpServer } from "../smtp/start-smtp-server.js";

// Issue 38: an incident goes to every destination `incidents:` names, not only Slack — a mail,
// a Teams card, the signed webhook's JSON (`kind: "incident"`) and a PagerDuty alert whose dedup
// key is the incident's key — each delivered once through the ledger, however often the step
// runs; when the last member resolves, the mail follows up, Teams and the webhook are told, and
// PagerDuty's alert resolves.

const DAY = 86_400_000;
const F1 = new Date("2026-11-16T08:00:00.000Z");
const at = (days: number) => new Date(F1.getTime() + days * DAY);

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

interface Fakes {
  smtp: TestSmtpServer;
  teams: FakeTeams;
  hook: FakeReceiver;
  pd: FakeEventsApi;
}

function config(f: Fakes): ResolvedConfig {
  const result = parse(
    configText({
      "teams[0].alerts[0]": {
        name: "runs-low",
        schedule: "0 9 * * *",
        metric: "runs",
        warn_at: 150,
        critical_at: 100,
        clear_at: 200,
        email: { to: ["qa@example.com"] },
      },
      "teams[1].alerts": [
        {
          name: "flaky-rate",
          schedule: "0 3 * * *",
          warn_at: 3,
          critical_at: 5,
          clear_at: 2.5,
          email: { to: ["pay@example.com"] },
        },
      ],
      incidents: {
        email: { to: ["oncall@example.com"] },
        msteams: { webhook_url: f.teams.url },
        webhook: { url: f.hook.url, secret: FAKE_WEBHOOK_SECRET },
        pagerduty: { routing_key: FAKE_ROUTING_KEY },
      },
    }),
    { env: fullEnv({ SMTP_URL: f.smtp.url(), PAGERDUTY_EVENTS_URL: f.pd.url }) },
  );
  if (!("config" in result)) throw new Error(JSON.stringify(result.issues));
  return result.config;
}

async function setUp() {
  const [smtp, teams, hook, pd] = await Promise.all([
    startSmtpServer(),
    startFakeTeams(),
    startFakeReceiver(),
    startFakeEventsApi(),
  ]);
  const dir = mkdtempSync(join(tmpdir(), "incident-kinds-"));
  const ledger = await openLedger(join(dir, "ledger.sqlite"));
  cleanup.push(async () => {
    await ledger.close();
    await Promise.all([smtp.close(), teams.close(), hook.close(), pd.close()]);
    rmSync(dir, { recursive: true, force: true });
  });
  const resolved = config({ smtp, teams, hook, pd });
  const logger = createLogger({ level: "silent" });
  const email = DESTINATIONS.email.clients(resolved.email, logger);
  const msteams = DESTINATIONS.msteams.clients(resolved.msteams, logger);
  const webhook = DESTINATIONS.webhook.clients(resolved.webhook, logger);
  const pagerduty = DESTINATIONS.pagerduty.clients(resolved.pagerduty, logger);
  for (const c of [email, msteams, webhook, pagerduty]) if (c) cleanup.push(() => c.close());
  const incidents = resolved.incidents;
  if (!incidents) throw new Error("incidents off");
  const deps: IncidentDeps = {
    config: incidents,
    ledger,
    deliveries: claimingLedger(ledger, { owner: "test", sendTimeoutMs: 10_000, take: "due" }),
    slack: null,
    clients: {
      slack: null,
      email: email?.alert ?? null,
      msteams: msteams?.alert ?? null,
      webhook: webhook?.alert ?? null,
      pagerduty: pagerduty?.alert ?? null,
    },
    logger,
  };
  const alerts = resolved.teams.map((team) => ({ team, alert: team.alerts[0] as AlertConfig }));
  return { ledger, smtp, teams, hook, pd, alerts, deps };
}

/** Records an alert's evaluation at `fire`, its scopes firing (fired now) or not, sent. */
async function evaluated(
  ledger: Ledger,
  { team, alert }: { team: Team; alert: AlertConfig },
  fire: Date,
  scopes: { scope: string; firing: boolean; fired: boolean; threadKey?: string }[],
): Promise<string> {
  const { key, window } = alertSlot({ team, alert, fireAt: fire });
  await ledger.recordAlertEvaluation({
    slot: {
      key,
      team: team.name,
      kind: "alert",
      job: alert.name,
      fireAt: fire,
      period: window,
      destinations: [],
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
    notification: null,
  });
  return key;
}

describe("an incident beyond Slack", () => {
  it("goes once to its mail, Teams card, webhook and PagerDuty, and resolves in each with its last member", async () => {
    const s = await setUp();
    const [checkout, payments] = s.alerts as [(typeof s.alerts)[0], (typeof s.alerts)[0]];
    await evaluated(s.ledger, checkout, F1, [
      { scope: "pdqmxlz", firing: true, fired: true },
      { scope: "qwhtzrn", firing: true, fired: true },
    ]);
    const fireB = await evaluated(s.ledger, payments, F1, [
      { scope: "mvbkqfe", firing: true, fired: true },
    ]);
    expect(await runIncidents(F1, s.alerts, s.deps)).toBe("done");
    // A second replica reaching the same instant sends nothing more.
    expect(await runIncidents(F1, s.alerts, s.deps)).toBe("done");
    const key = incidentKey(F1);
    const summary = "3 projects in 2 teams: flaky rate up, runs down — likely shared CI";

    expect(s.smtp.messages).toHaveLength(1);
    const [mail] = s.smtp.messages;
    expect(mail?.envelope.to).toEqual(["oncall@example.com"]);
    expect(mail?.parsed.subject).toBe(`Incident: ${summary}`);
    expect(mail?.parsed.text).toContain("payments · flaky-rate · MVBKQFE: 9.0%");
    expect(mail?.parsed.messageId).toBe(messageIdForKey(key));

    expect(s.teams.cards).toHaveLength(1);
    expect(JSON.stringify(s.teams.cards[0]?.message)).toContain(`Incident: ${summary}`);

    expect(s.hook.accepted).toHaveLength(1);
    const body = s.hook.accepted[0]?.body ?? {};
    expect(webhookBodySchema.safeParse(body).success).toBe(true);
    expect(body).toMatchObject({
      kind: "incident",
      key,
      incident: { key, state: "open", summary },
    });
    expect((body.incident as { members: unknown[] }).members).toHaveLength(3);

    expect(s.pd.events.map((e) => [e.event_action, e.dedup_key])).toEqual([["trigger", key]]);
    expect(s.pd.events[0]?.payload?.summary).toBe(`Incident: ${summary}`);

    const slot = await s.ledger.getSlot(key);
    expect(slot?.deliveries.map((d) => d.state)).toEqual(["sent", "sent", "sent", "sent"]);

    // Day 2: every member resolves; the incident resolves once in each destination.
    await evaluated(s.ledger, checkout, at(1), [
      { scope: "pdqmxlz", firing: false, fired: false },
      { scope: "qwhtzrn", firing: false, fired: false },
    ]);
    await evaluated(s.ledger, payments, at(1), [
      { scope: "mvbkqfe", firing: false, fired: false, threadKey: fireB },
    ]);
    expect(await runIncidents(at(1), s.alerts, s.deps)).toBe("done");
    expect(await runIncidents(at(1), s.alerts, s.deps)).toBe("done");

    expect(s.smtp.messages).toHaveLength(2);
    const resolved = s.smtp.messages[1]?.parsed;
    expect(resolved?.subject).toBe(`Resolved incident: ${summary}`);
    expect(resolved?.inReplyTo).toBe(mail?.parsed.messageId);
    expect(s.teams.cards).toHaveLength(2);
    expect(JSON.stringify(s.teams.cards[1]?.message)).toContain("Resolved incident");
    expect(s.hook.accepted.map((a) => (a.body.incident as { state: string }).state)).toEqual([
      "open",
      "resolved",
    ]);
    expect(webhookBodySchema.safeParse(s.hook.accepted[1]?.body).success).toBe(true);
    expect(s.pd.events.map((e) => [e.event_action, e.dedup_key])).toEqual([
      ["trigger", key],
      ["resolve", key],
    ]);
  });
});

describe("incidents config", () => {
  it("takes mail, Teams, webhook and PagerDuty destinations, without Slack", () => {
    const result = parse(
      configText({
        incidents: {
          email: { to: ["oncall@example.com"] },
          pagerduty: { routing_key: FAKE_ROUTING_KEY },
        },
      }),
    );
    if (!("config" in result)) throw new Error(JSON.stringify(result.issues));
    expect(result.config.incidents?.email).toEqual({ to: ["oncall@example.com"] });
    expect(result.config.incidents?.pagerduty?.destination).toMatch(/^pagerduty:[0-9a-f]{6}$/);
    expect(result.config.incidents?.slack).toBeNull();
  });
});
