import { describe, expect, it } from "vitest";
import { evaluateAlert } from "../../src/alerts/evaluate-alert.js";
import type { ScopeState, ScopeWindow } from "../../src/alerts/types.js";
import { buildAlertNotification } from "../../src/render/alert/alert-notification.js";
import { renderAlertEmail } from "../../src/render/alert/email-alert.js";
import { counts, rule } from "../alerts/alert-builders.js";
import { checkMessage } from "../fake-slack/check-message.js";

const NOW = "2026-11-19T08:00:00.000Z";
const window = (scope: string, name: string, percent: number): ScopeWindow => ({
  scope,
  name,
  current: counts(percent, 5_000),
  prior: counts(1, 5_000),
  daily: [counts(1, 5_000), counts(1.2, 5_000), counts(percent, 5_000)],
});
const firing = (scope: string, state: "warn" | "critical"): ScopeState => ({
  scope,
  state,
  since: "2026-11-18T08:00:00.000Z",
  breaches: 1,
  lastValue: 4,
  lastNotifiedAt: "2026-11-18T08:00:00.000Z",
  firedAt: "2026-11-17T08:00:00.000Z",
  threadKey: "t.alert.flaky.2026-11-16",
});

function notify(
  windows: ScopeWindow[],
  states: Map<string, ScopeState>,
  mention: string | null = "<!subteam^S1>",
) {
  const evaluation = evaluateAlert({
    rule: rule({ confidence: 0.95 }),
    windows,
    states,
    now: NOW,
    key: "t.alert.flaky.2026-11-18",
  });
  return buildAlertNotification({
    key: "t.alert.flaky.2026-11-18",
    team: { name: "t", title: "Checkout & Co", timezone: "Europe/Berlin" },
    alert: {
      name: "flaky",
      metric: "flaky_rate",
      warnAt: 3,
      criticalAt: 5,
      clearAt: 2.5,
      confidence: 0.95,
    },
    period: { start: "2026-11-18", end: "2026-11-18" },
    mention,
    evaluation,
    slack: { channel: "C1" },
    email: { to: ["a@example.com"] },
    now: NOW,
  });
}

describe("alert messages", () => {
  it("a fire is a new post with the mention, valid for Slack, names escaped", () => {
    const n = notify([window("p1", "<!channel> web", 4)], new Map());
    const slack = n?.slack;
    expect(slack?.threadKey).toBeNull();
    expect(slack?.updates).toEqual([]);
    expect(slack?.post.main.text.startsWith("<!subteam^S1> ")).toBe(true);
    const body = JSON.stringify(slack?.post.main.blocks);
    expect(body).toContain("&lt;!channel&gt; web");
    expect(body).not.toContain("<!channel>");
    expect(body).toContain("Checkout &amp; Co");
    expect(checkMessage(slack?.post.main.text, slack?.post.main.blocks)).toBeNull();
  });

  it("a resolution replies in the fire's thread, pings no one, and turns the first message green", () => {
    const n = notify([window("p1", "Web", 1)], new Map([["p1", firing("p1", "warn")]]));
    expect(n?.slack?.threadKey).toBe("t.alert.flaky.2026-11-16");
    expect(n?.slack?.post.main.text).not.toContain("<!subteam");
    const [update] = n?.slack?.updates ?? [];
    expect(update?.rootKey).toBe("t.alert.flaky.2026-11-16");
    expect(update?.message.text).toBe("Resolved: Checkout & Co · flaky");
    expect(JSON.stringify(update?.message.blocks)).toContain("fired for 2d");
    expect(checkMessage(update?.message.text, update?.message.blocks)).toBeNull();
  });

  it("groups one evaluation's transitions in one message, fired first", () => {
    const n = notify(
      [window("p1", "Resolving", 1), window("p2", "Firing", 6)],
      new Map([["p1", firing("p1", "warn")]]),
    );
    const blocks = JSON.stringify(n?.slack?.post.main.blocks);
    expect(blocks.indexOf("*Fired*")).toBeLessThan(blocks.indexOf("*Resolved*"));
    // A fire makes it a new post; the other fire's first message is still edited.
    expect(n?.slack?.threadKey).toBeNull();
    expect(n?.slack?.updates.map((u) => u.rootKey)).toEqual(["t.alert.flaky.2026-11-16"]);
    expect(n?.slack?.post.metadata.event_payload.transitions).toEqual([
      { scope: "p2", from: "no_data", to: "critical", value: 6 },
      { scope: "p1", from: "warn", to: "ok", value: 1 },
    ]);
  });

  it("sends nothing when nothing changed", () => {
    expect(notify([window("p1", "Web", 1)], new Map())).toBeNull();
  });

  it("a mail says the worst news in its subject, and escapes names in its HTML", () => {
    const evaluation = evaluateAlert({
      rule: rule({ confidence: 0.95 }),
      windows: [window("p1", "<b>Web</b>", 6)],
      states: new Map(),
      now: NOW,
      key: "k",
    });
    const mail = renderAlertEmail(
      {
        key: "k",
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
        transitions: evaluation.transitions,
        mention: null,
        mentionDue: true,
      },
      NOW,
    );
    expect(mail.subject).toBe("[critical] Checkout · flaky · Nov 18, 2026");
    expect(mail.html).toContain("&lt;b&gt;Web&lt;/b&gt;");
    expect(mail.text).toContain("flaky rate 6.0% (");
  });
});
