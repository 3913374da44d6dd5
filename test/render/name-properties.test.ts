import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { evaluateAlert } from "../../src/alerts/evaluate-alert.js";
import { formIncident } from "../../src/alerts/form-incident.js";
import type { ScopeState, ScopeWindow } from "../../src/alerts/types.js";
import { formatHistory } from "../../src/commands/history-table.js";
import { projectLines } from "../../src/commands/projects-command.js";
import { storeLines } from "../../src/commands/store-command.js";
import { buildAlertNotification } from "../../src/destinations/alert-notification.js";
import { renderDigestEmail } from "../../src/destinations/email/messages/email-digest.js";
import { renderIncidentEmail } from "../../src/destinations/email/messages/email-incident.js";
import { renderTeamsDigest } from "../../src/destinations/msteams/messages/teams-digest.js";
import { renderTeamsIncident } from "../../src/destinations/msteams/messages/teams-incident.js";
import { pagerdutyIncidentEvent } from "../../src/destinations/pagerduty/messages/pagerduty-events.js";
import { renderSlackDigest } from "../../src/destinations/slack/messages/slack-digest.js";
import {
  slackIncidentPost,
  slackIncidentResolved,
  slackIncidentResolvedReply,
  withIncidentLine,
} from "../../src/destinations/slack/messages/slack-incident.js";
import { slackLimitProblems } from "../../src/destinations/slack/messages/slack-limits.js";
import { webhookBodySchema } from "../../src/destinations/webhook/messages/webhook-body-schema.js";
import { webhookDigestBody } from "../../src/destinations/webhook/messages/webhook-digest.js";
import { webhookIncidentBody } from "../../src/destinations/webhook/messages/webhook-incident.js";
import type { SlackMessage } from "../../src/messages.js";
import { renderTerminalAlert } from "../../src/render/alert/terminal-alert.js";
import { renderTerminalReport } from "../../src/render/terminal/terminal-report.js";
import type { Report } from "../../src/report/types.js";
import type { IncidentRecord } from "../../src/state/incidents.js";
import { counts, rule } from "../alerts/alert-builders.js";
import { cardProblems } from "../fake-webhooks/check-card.js";
import { checkoutReport, unavailable } from "./report-fixture.js";

// Issue 35, as a property: whatever a name from the API or config holds — Slack mentions and
// links, mrkdwn and Markdown marks, HTML, terminal escapes, bidi controls, URLs, 10,000
// characters — every destination shows it as a name: nothing pings, links, formats, injects a
// tag or moves the cursor, and every Slack message stays within Slack's limits.

const NOW = "2026-11-19T08:00:00.000Z";
const ESC = "\x1b";

const PIECES = [
  "<!channel>",
  "<!here>",
  "<!everyone>",
  "<@U1>",
  "<#C1>",
  "<!subteam^S1>",
  "<http://x.test|y>",
  "&lt;",
  "&amp;",
  "&",
  "*",
  "_",
  "~",
  "`",
  "*bold*",
  "_it_",
  "<b>",
  "<script>",
  "</td>",
  "<img src=x onerror=alert(1)>",
  `${ESC}[31m`,
  `${ESC}[2J`,
  `${ESC}]8;;https://evil.test${ESC}\\`,
  "\r",
  "\b",
  "\n",
  "\u202E",
  "\u2066",
  "\u200F",
  "https://evil.test/x",
  "http://a.b",
  "www.evil.io",
  "evil.com",
  "ops@evil.co",
  " ",
  "|",
  "Checkout",
  "é",
  "\u{1F680}",
];

/** A name: pieces of trouble and random text mixed, sometimes 10,000 characters long. */
const nameArb: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .array(fc.oneof(fc.constantFrom(...PIECES), fc.string()), { minLength: 1, maxLength: 12 })
      .map((parts) => parts.join("")),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(...PIECES)
      .map((p) => p.repeat(Math.ceil(10_000 / p.length)).slice(0, 10_000)),
  },
  { weight: 1, arbitrary: fc.string({ minLength: 1 }).map((s) => `${s}${"x".repeat(10_000)}`) },
);

/** Our own links: a dashboard URL from the config, and a label that was escaped. */
const OUR_LINK = /<https:\/\/insights\.example\.com\/[^|<>]+\|[^<>]*>/g;
/** What Slack would link in text: a scheme, `www.x`, or a dot between a letter or digit and a letter. */
const LINKABLE = /https?:\/\/|www\.[\p{L}\p{N}]|[\p{L}\p{N}]\.\p{L}/u;
/** A control character other than the newline, or a bidi control. */
const UNPRINTABLE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point.
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

function hostileReport(names: readonly string[]): Report {
  const [title = "", digest = "", ...projectNames] = names;
  const report = checkoutReport({
    team: { name: "checkout", title, timezone: "Europe/Berlin" },
    digest,
  });
  report.projects = report.projects.map((p, i) =>
    p.status === "ok" ? { ...p, name: projectNames[i % projectNames.length] ?? p.name } : p,
  );
  report.projects.push(unavailable("gone", projectNames[0] ?? "gone", "503"));
  return report;
}

/** Every string in a value with whether Slack parses it as mrkdwn, by the type beside it. */
function slackTexts(message: SlackMessage): { text: string; mrkdwn: boolean }[] {
  const out = [{ text: message.text, mrkdwn: true }];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) for (const item of value) visit(item);
    else if (typeof value === "object" && value !== null) {
      const record = value as Record<string, unknown>;
      if (typeof record.text === "string")
        out.push({ text: record.text, mrkdwn: record.type === "mrkdwn" });
      for (const inner of Object.values(record)) visit(inner);
    }
  };
  visit(message.blocks);
  return out;
}

function expectSafeForSlack(message: SlackMessage): void {
  expect(slackLimitProblems(message)).toEqual([]);
  expect(message.text.length).toBeLessThanOrEqual(40_000);
  for (const { text, mrkdwn } of slackTexts(message)) {
    const outside = text.replace(OUR_LINK, "");
    expect(outside).not.toMatch(LINKABLE);
    if (mrkdwn) {
      // No mention, channel, special or link syntax at all: every < and > is an entity.
      expect(outside).not.toMatch(/[<>]/);
      expect(outside).not.toMatch(/&(?!amp;|lt;|gt;)/);
    }
  }
}

function expectPrintable(lines: readonly string[]): void {
  for (const line of lines)
    for (const part of line.split("\n")) expect(part).not.toMatch(UNPRINTABLE);
}

const window = (scope: string, name: string, percent: number): ScopeWindow => ({
  scope,
  name,
  current: counts(percent, 5_000),
  prior: counts(1, 5_000),
  daily: [counts(1, 5_000), counts(percent, 5_000)],
});

const firing: ScopeState = {
  scope: "p2",
  state: "warn",
  since: "2026-11-18T08:00:00.000Z",
  breaches: 1,
  lastValue: 4,
  lastNotifiedAt: "2026-11-18T08:00:00.000Z",
  firedAt: "2026-11-17T08:00:00.000Z",
  threadKey: "t.alert.flaky.2026-11-16",
};

/** One evaluation in which p1 fires and p2 resolves: a new post, and the edit of p2's fire. */
function hostileAlert(title: string, name: string) {
  const key = "t.alert.flaky.2026-11-18";
  const evaluation = evaluateAlert({
    rule: rule({ confidence: 0.95 }),
    windows: [window("p1", name, 9), window("p2", name, 1)],
    states: new Map([["p2", firing]]),
    now: NOW,
    key,
  });
  const input = {
    key,
    team: { name: "t", title, timezone: "Europe/Berlin" },
    alert: {
      name: "flaky",
      metric: "flaky_rate" as const,
      warnAt: 3,
      criticalAt: 5,
      clearAt: 2.5,
      confidence: 0.95,
    },
    period: { start: "2026-11-18", end: "2026-11-18" },
    mention: null,
    dashboardUrl: "https://insights.example.com/projects/{project_id}",
    evaluation,
    slack: { channel: "C1" },
    email: { to: ["qa@example.com"] },
    msteams: { destination: "msteams:1" },
    webhook: { destination: "webhook:1" },
    pagerduty: { destination: "pagerduty:1" },
    now: NOW,
  };
  return { evaluation, notification: buildAlertNotification(input), key };
}

const RUNS = { numRuns: 40 };

describe("names from the API or config, in every destination", () => {
  it("a Slack digest, its thread, its email, Teams card and webhook show any names as names, within limits", () => {
    fc.assert(
      fc.property(fc.array(nameArb, { minLength: 3, maxLength: 5 }), (names) => {
        const report = hostileReport(names);
        const post = renderSlackDigest(report, { key: "k" });
        for (const message of [post.main, ...post.thread]) expectSafeForSlack(message);

        const { html } = renderDigestEmail(report, { key: "k" });
        for (const tag of [
          "<script",
          "<img src=x",
          "</td>\u00a0",
          "<!channel",
          "<@U1",
          "<#C1",
          "<http",
        ])
          expect(html).not.toContain(tag);

        expect(cardProblems(JSON.stringify(renderTeamsDigest(report)))).toEqual([]);

        const body = webhookBodySchema.parse(
          JSON.parse(JSON.stringify(webhookDigestBody(report, "k"))),
        );
        expect(body.kind === "digest" && body.team.title).toBe(report.team.title);

        expectPrintable([renderTerminalReport(report, { color: false, width: 100 })]);
      }),
      RUNS,
    );
  });

  it("a Slack alert, its thread reply and its edit, its mail, card, webhook and terminal lines show any names as names", () => {
    fc.assert(
      fc.property(nameArb, nameArb, (title, name) => {
        const { evaluation, notification, key } = hostileAlert(title, name);
        const slack = notification?.slack;
        if (!slack) throw new Error("no Slack message");
        expect(slack.updates).toHaveLength(1);
        for (const message of [
          slack.post.main,
          ...slack.post.thread,
          ...slack.updates.map((u) => u.message),
        ])
          expectSafeForSlack(message);

        const html = notification?.email?.html ?? "";
        for (const tag of ["<script", "<img src=x", "<!channel", "<@U1", "<#C1", "<http"])
          expect(html).not.toContain(tag);

        expect(cardProblems(JSON.stringify(notification?.msteams?.card))).toEqual([]);
        webhookBodySchema.parse(JSON.parse(notification?.webhook?.body ?? ""));

        expectPrintable(
          renderTerminalAlert(
            { name: "flaky", metric: "flaky_rate" },
            { key, window: { start: "2026-11-18", end: "2026-11-18" }, evaluation },
          ),
        );
      }),
      RUNS,
    );
  });

  it("an incident's Slack post, thread, edit and line, its mail, card, webhook and pager event show any names as names", () => {
    fc.assert(
      fc.property(fc.array(nameArb, { minLength: 2, maxLength: 4 }), nameArb, (names, id) => {
        const plan = formIncident(
          names.map((name, i) => ({
            team: i % 2 ? "checkout" : "payments",
            alert: "flaky",
            metric: "flaky_rate" as const,
            scope: `${id}${i}`,
            name,
            value: 4,
            fireKey: `t.alert.flaky.2026-11-18.${i}`,
          })),
          2,
        );
        if (!plan) throw new Error("no incident");
        const record: IncidentRecord = {
          summary: plan.summary,
          channel: "C1",
          members: plan.members.map((m) => ({ ...m, channel: "C2" })),
        };
        const key = "incident.2026-11-18T08:00:00.000Z";
        const post = slackIncidentPost(key, record);
        const memberMessage = hostileAlert("t", names[0] ?? "").notification?.slack?.post.main;
        if (!memberMessage) throw new Error("no member message");
        for (const message of [
          post.main,
          ...post.thread,
          slackIncidentResolved(key, record),
          slackIncidentResolvedReply(key, record).main,
          withIncidentLine(memberMessage, key, record.channel),
        ])
          expectSafeForSlack(message);

        for (const resolved of [false, true]) {
          const input = { key, incidentKey: key, record, resolved, now: NOW };
          const mail = renderIncidentEmail(input);
          for (const tag of ["<script", "<img src=x", "<!channel", "<@U1", "<#C1", "<http"])
            expect(mail.html).not.toContain(tag);
          expectPrintable([mail.subject]);
          expect(cardProblems(JSON.stringify(renderTeamsIncident(input)))).toEqual([]);
          const body = webhookBodySchema.parse(
            JSON.parse(JSON.stringify(webhookIncidentBody(input))),
          );
          expect(body.kind === "incident" && body.incident.members.map((m) => m.name)).toEqual(
            record.members.map((m) => m.name),
          );
          const event = pagerdutyIncidentEvent(input);
          expectPrintable([event.payload?.summary ?? ""]);
        }
      }),
      RUNS,
    );
  });

  it("the projects, store and history commands print any names without control characters", () => {
    fc.assert(
      fc.property(nameArb, nameArb, (id, name) => {
        expectPrintable(projectLines([{ id, name }]));
        expectPrintable(
          storeLines(
            {
              projectId: id,
              filters: JSON.stringify({ branch: name, author: name, tags: [name] }),
              timezone: name,
              first: "2026-11-01",
              last: "2026-11-03",
              days: 3,
            },
            name,
          ),
        );
        const at = new Date("2026-11-16T08:00:00Z");
        expectPrintable(
          formatHistory(
            [
              {
                key: id,
                team: "checkout",
                kind: "digest",
                job: "daily",
                fireAt: at,
                period: { start: "2026-11-15", end: "2026-11-15" },
                createdAt: at,
                finishedAt: null,
                deliveries: [
                  {
                    destination: `webhook:${name}`,
                    state: "failed",
                    attempts: 1,
                    lastError: name,
                    nextAttemptAt: null,
                    ref: null,
                    updatedAt: at,
                    claimedBy: null,
                    claim: 0,
                    claimedAt: null,
                  },
                ],
              },
            ],
            { zone: "UTC", width: 80 },
          ),
        );
      }),
      { numRuns: 20 },
    );
  });
});
