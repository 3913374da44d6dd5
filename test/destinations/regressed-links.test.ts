import { afterEach, describe, expect, it } from "vitest";
import { evaluateAlert } from "../../src/alerts/evaluate-alert.js";
import type { ScopeWindow } from "../../src/alerts/types.js";
import { buildAlertNotification } from "../../src/destinations/alert-notification.js";
import { composeEml } from "../../src/destinations/email/email-eml.js";
import { emailAlertJob } from "../../src/destinations/email/email-jobs.js";
import { messageIdForKey } from "../../src/destinations/email/email-message-id.js";
import { createSlackAlertDestination } from "../../src/destinations/slack/slack-alert-destination.js";
import { slackAlertJob } from "../../src/destinations/slack/slack-alert-job.js";
import { createSlackClients } from "../../src/destinations/slack/slack-client.js";
import type { EmailMessage } from "../../src/messages.js";
import { Secret } from "../../src/secret.js";
import { counts, rule } from "../alerts/alert-builders.js";
import { recordingProgress } from "../deliver/recording-progress.js";
import {
  FAKE_SLACK_TOKEN,
  type FakeSlack,
  startFakeSlack,
} from "../fake-slack/fake-slack-server.js";

// Issue 38: a re-fire within 7 days says "regressed" and names the earlier fire; Slack links
// the earlier fire's first message (its permalink, asked for at send time; the words alone when
// Slack cannot give one), and the mail names the earlier fire's mail in References.

const NOW = "2026-11-19T08:00:00.000Z";
const KEY = "t.alert.flaky.2026-11-18";
const EARLIER = "t.alert.flaky.2026-11-10";
const CHANNEL = "C0123ABCD";

const started: FakeSlack[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((f) => f.close()));
});

function notification() {
  const window: ScopeWindow = {
    scope: "p1",
    name: "Web",
    current: counts(6, 5_000),
    prior: null,
    daily: [counts(6, 5_000)],
  };
  const evaluation = evaluateAlert({
    rule: rule({ confidence: 0.95 }),
    windows: [window],
    states: new Map(),
    now: NOW,
    key: KEY,
    resolvedRecently: new Map([
      [
        "p1",
        {
          fireKey: EARLIER,
          firedIn: { start: "2026-11-10", end: "2026-11-10" },
          resolvedIn: { start: "2026-11-12", end: "2026-11-12" },
        },
      ],
    ]),
  });
  const n = buildAlertNotification({
    key: KEY,
    team: { name: "t", title: "Checkout", timezone: "Europe/Berlin" },
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
    slack: { channel: CHANNEL },
    email: { to: ["qa@example.com"] },
    msteams: null,
    webhook: null,
    pagerduty: null,
    now: NOW,
  });
  if (!n?.slack || !n.email) throw new Error("nothing rendered");
  return { slack: n.slack, email: n.email };
}

async function sentToSlack(earlierTs: (slack: FakeSlack, ts: string) => string | null) {
  const slack = await startFakeSlack();
  started.push(slack);
  const clients = createSlackClients({
    token: new Secret(FAKE_SLACK_TOKEN),
    apiUrl: slack.url,
    minRetryDelayMs: 5,
  });
  const destination = createSlackAlertDestination(clients, { warn: () => {} });
  const earlier = await destination.postAlert(
    CHANNEL,
    {
      main: { text: "the earlier fire", blocks: [] },
      metadata: { event_type: "insights_alert", event_payload: { key: EARLIER } },
      thread: [],
    },
    null,
  );
  const ts = earlierTs(slack, earlier.ts);
  const job = slackAlertJob(KEY, notification().slack, destination, {
    logger: { warn: () => {} } as never,
    since: new Date(0),
    threadTs: async (rootKey) => (rootKey === EARLIER ? ts : null),
  });
  const receipt = await job.send(recordingProgress());
  const post = slack.posts.find((p) => p.ts === receipt.ref);
  return { text: JSON.stringify(post?.blocks), earlierTs: earlier.ts };
}

describe("a regressed fire links the earlier one", () => {
  it("in Slack, the words naming the earlier fire link its first message's permalink", async () => {
    const { text, earlierTs } = await sentToSlack((_, ts) => ts);
    const permalink = `https://fake-workspace.slack.com/archives/${CHANNEL}/p${earlierTs.replace(".", "")}`;
    expect(text).toContain(`regressed: <${permalink}|it fired Nov 10> and resolved Nov 12`);
  });

  it("in Slack, without a permalink (the earlier message is gone) the words stay, unlinked", async () => {
    const { text } = await sentToSlack(() => "1700000000.000001");
    expect(text).toContain("regressed: it fired Nov 10 and resolved Nov 12");
    expect(text).not.toContain("|it fired");
  });

  it("by mail, References names the earlier fire's mail", async () => {
    const sent: EmailMessage[] = [];
    const job = emailAlertJob(KEY, notification().email, {
      maxBytes: 10_000_000,
      measure: async () => 0,
      send: async (message) => {
        sent.push(message);
        return { messageId: message.messageId, rejected: [] } as never;
      },
    });
    await job.send(recordingProgress());
    const [mail] = sent;
    if (!mail) throw new Error("no mail");
    const eml = (await composeEml(mail, "reporter@example.com")).toString();
    expect(eml).toMatch(
      new RegExp(
        `^References: ${messageIdForKey(EARLIER).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`,
        "m",
      ),
    );
    // A fire opens its own thread: it replies to nothing.
    expect(eml).not.toMatch(/^In-Reply-To:/m);
  });
});
