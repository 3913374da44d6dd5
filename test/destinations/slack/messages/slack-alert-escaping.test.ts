import { describe, expect, it } from "vitest";
import { evaluateAlert } from "../../../../src/alerts/evaluate-alert.js";
import type { ScopeState, ScopeWindow } from "../../../../src/alerts/types.js";
import { buildAlertNotification } from "../../../../src/destinations/alert-notification.js";
import { slackLimitProblems } from "../../../../src/destinations/slack/messages/slack-limits.js";
import type { SlackMessage } from "../../../../src/messages.js";
import { counts, rule } from "../../../alerts/alert-builders.js";
import { mrkdwnTexts } from "./slack-blocks.js";

// Issue 35: a team title or project name reaches every Slack text of an alert — the
// notification (`text`), its blocks, its replies in the fire's thread and the edits of its
// first message — and must ping no one, link nowhere and fit Slack's limits there.

const NOW = "2026-11-19T08:00:00.000Z";
const HOSTILE = "<!channel> <!everyone> <!here> <@U123> <http://evil.test|click> & co";
const LIVE = ["<!channel>", "<!everyone>", "<!here>", "<@U123>", "<http://evil"];

const window = (name: string, percent: number): ScopeWindow => ({
  scope: "p1",
  name,
  current: counts(percent, 5_000),
  prior: counts(1, 5_000),
  daily: [counts(1, 5_000), counts(percent, 5_000)],
});

const firing: ScopeState = {
  scope: "p1",
  state: "warn",
  since: "2026-11-18T08:00:00.000Z",
  breaches: 1,
  lastValue: 4,
  lastNotifiedAt: "2026-11-18T08:00:00.000Z",
  firedAt: "2026-11-17T08:00:00.000Z",
  threadKey: "t.alert.flaky.2026-11-16",
};

/** The Slack part of one evaluation of `p1` at `percent` under a team titled `title`. */
function slackAlert(title: string, name: string, percent: number, states = new Map()) {
  const key = "t.alert.flaky.2026-11-18";
  const evaluation = evaluateAlert({
    rule: rule({ confidence: 0.95 }),
    windows: [window(name, percent)],
    states,
    now: NOW,
    key,
  });
  const slack = buildAlertNotification({
    key,
    team: { name: "t", title, timezone: "Europe/Berlin" },
    alert: {
      name: "flaky",
      metric: "flaky_rate",
      warnAt: 3,
      criticalAt: 5,
      clearAt: 2.5,
      confidence: 0.95,
    },
    period: { start: "2026-11-18", end: "2026-11-18" },
    mention: null,
    evaluation,
    slack: { channel: "C1" },
    email: null,
    msteams: null,
    webhook: null,
    pagerduty: null,
    now: NOW,
  })?.slack;
  if (!slack) throw new Error("no Slack message");
  return slack;
}

/** Every message the evaluation sends to Slack: the post (or thread reply) and each edit. */
function messagesOf(slack: ReturnType<typeof slackAlert>): SlackMessage[] {
  return [slack.post.main, ...slack.post.thread, ...slack.updates.map((u) => u.message)];
}

/** Every text Slack parses for mentions and links: the notification text and each mrkdwn text. */
const parsedTexts = (messages: SlackMessage[]) =>
  messages.flatMap((m) => [m.text, ...mrkdwnTexts(m)]);

describe("alert names in Slack", () => {
  it("a fire's notification text pings no one and links nowhere for a hostile team title and project name", () => {
    const slack = slackAlert(HOSTILE, HOSTILE, 9);
    const { text } = slack.post.main;
    for (const live of LIVE) expect(text).not.toContain(live);
    expect(text).toContain("&lt;!channel&gt;");
    expect(text).toContain("&amp; co");
  });

  it("a reply in the fire's thread and the edit of its first message ping no one for hostile names", () => {
    const slack = slackAlert(HOSTILE, HOSTILE, 1, new Map([["p1", firing]]));
    expect(slack.threadKey).toBe("t.alert.flaky.2026-11-16");
    expect(slack.updates).toHaveLength(1);
    for (const text of parsedTexts(messagesOf(slack))) {
      for (const live of LIVE) expect(text).not.toContain(live);
    }
  });

  it("a 10,000-character team title and project name are cut, never the alert, its state or its value", () => {
    const long = "Checkout squad ".repeat(667);
    for (const [percent, states] of [
      [9, new Map()],
      [1, new Map([["p1", firing]])],
    ] as const) {
      const slack = slackAlert(long, long, percent, states);
      for (const message of messagesOf(slack)) {
        expect(slackLimitProblems(message)).toEqual([]);
        expect(message.text.length).toBeLessThanOrEqual(1000);
      }
      const { text } = slack.post.main;
      expect(text).toContain("\u00b7 flaky:");
      expect(text).toContain("flaky rate");
      expect(text).toContain(percent === 9 ? "9.0% \u2014 above critical 5%" : "resolved");
      expect(text.endsWith("\u2026")).toBe(false);
    }
  });
});
