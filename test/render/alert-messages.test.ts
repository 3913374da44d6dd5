import { describe, expect, it } from "vitest";
import { evaluateAlert } from "../../src/alerts/evaluate-alert.js";
import type { ScopeState, ScopeWindow } from "../../src/alerts/types.js";
import {
  buildAlertNotification,
  type NotificationInput,
} from "../../src/destinations/alert-notification.js";
import { renderAlertEmail } from "../../src/destinations/email/messages/email-alert.js";
import { counts, rule } from "../alerts/alert-builders.js";
import { checkMessage } from "../fake-slack/check-message.js";
import { alertInput } from "./alert-input.js";

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

/** A scope evaluated before and ok then: its next fire is a move from ok. */
const wasOk = (scope: string): Map<string, ScopeState> =>
  new Map([[scope, { ...firing(scope, "warn"), state: "ok", firedAt: null, threadKey: null }]]);

function notify(
  windows: ScopeWindow[],
  states: Map<string, ScopeState>,
  mention: string | null = "<!subteam^S1>",
  more: Partial<Pick<NotificationInput, "history" | "dashboardUrl" | "owners" | "period">> = {},
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
    period: more.period ?? { start: "2026-11-18", end: "2026-11-18" },
    mention,
    evaluation,
    slack: { channel: "C1" },
    email: { to: ["a@example.com"] },
    msteams: null,
    webhook: null,
    pagerduty: null,
    now: NOW,
    ...more,
  });
}

/** The fire of Nov 16 as the ledger remembers it: its window, and its peak on Nov 17. */
const HISTORY = {
  p1: {
    firedIn: { start: "2026-11-16", end: "2026-11-16" },
    peak: { value: 9.5, period: { start: "2026-11-17", end: "2026-11-17" } },
  },
};

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
    expect(update?.message.text).toBe("Resolved: Checkout &amp; Co · flaky");
    expect(JSON.stringify(update?.message.blocks)).toContain("resolved after 2 days");
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
      { scope: "p2", from: "new", to: "critical", value: 6 },
      { scope: "p1", from: "warn", to: "ok", value: 1 },
    ]);
  });

  it("sends nothing when nothing changed", () => {
    expect(notify([window("p1", "Web", 1)], new Map())).toBeNull();
  });

  it("a mail says the worst news in its subject, and escapes names in its HTML", () => {
    const mail = renderAlertEmail(alertInput([window("p1", "<b>Web</b>", 6)], { key: "k" }), NOW);
    expect(mail.subject).toBe("[critical] Checkout · flaky · Nov 18, 2026");
    expect(mail.html).toContain("&lt;b&gt;Web&lt;/b&gt;");
    expect(mail.text).toContain("<b>Web</b> flaky rate 6.0% \u2014 above critical 5%");
    expect(mail.text.trimEnd().endsWith("Sent by insights-reporter \u00b7 k")).toBe(true);
  });
});

describe("an alert's first evaluation", () => {
  const WEEK = { start: "2026-11-12", end: "2026-11-18" };

  it("says what it saw since the window's first day, not a move from missing data", () => {
    const n = notify([window("p1", "Checkout flows", 9)], new Map(), null, { period: WEEK });
    expect(n?.slack?.post.main.text).toBe(
      "Checkout &amp; Co \u00b7 flaky: Checkout flows flaky rate 9.0% \u2014 above critical 5%, critical since at least Nov 12 (first check of this alert)",
    );
    expect(n?.slack?.post.metadata.event_payload.transitions).toEqual([
      { scope: "p1", from: "new", to: "critical", value: 9 },
    ]);
    const mail = n?.email;
    expect(mail?.text).toContain("critical since at least Nov 12 (first check of this alert)");
    expect(mail?.text).not.toContain("no_data");
  });

  it("that is ok posts nothing", () => {
    expect(notify([window("p1", "Web", 1)], new Map(), null, { period: WEEK })).toBeNull();
  });

  it("once recorded, the next fire is a move from the state it left", () => {
    const n = notify([window("p1", "Web", 9)], wasOk("p1"), null);
    expect(n?.slack?.post.main.text).not.toContain("first check");
    expect(n?.slack?.post.metadata.event_payload.transitions).toEqual([
      { scope: "p1", from: "ok", to: "critical", value: 9 },
    ]);
  });
});

describe("alert words", () => {
  const lines = (blocks: unknown) =>
    (blocks as { text?: { text: string } }[]).flatMap((b) => b.text?.text.split("\n") ?? []);

  it("a fire says the value and the threshold it is above, in the notification and the line", () => {
    const n = notify([window("p1", "Checkout flows", 9)], wasOk("p1"), null);
    expect(n?.slack?.post.main.text).toBe(
      "Checkout &amp; Co \u00b7 flaky: Checkout flows flaky rate 9.0% \u2014 above critical 5%",
    );
    expect(lines(n?.slack?.post.main.blocks)).toContainEqual(
      expect.stringMatching(
        /^\u{1F534} \*Checkout flows\* flaky rate 9\.0% \u2014 above critical 5% \u00b7 /u,
      ),
    );
    expect(JSON.stringify(n)).not.toContain("fired critical");
  });

  it("a resolution says how long it fired and its peak, and the edited first message keeps them with the dates", () => {
    const n = notify([window("p1", "Web", 1)], new Map([["p1", firing("p1", "warn")]]), null, {
      history: HISTORY,
    });
    const words =
      "Web flaky rate back under 2.5% \u2014 resolved after 2 days (peak 9.5% on Nov 17)";
    expect(n?.slack?.post.main.text).toBe(`Checkout &amp; Co \u00b7 flaky: ${words}`);
    const [update] = n?.slack?.updates ?? [];
    expect(lines(update?.message.blocks)).toContain(
      "\u{1F7E2} *Web* flaky rate back under 2.5% \u2014 resolved after 2 days (peak 9.5% on Nov 17) \u00b7 fired Nov 16, resolved Nov 18",
    );
    expect(n?.email?.text).toContain(words);
  });

  it("an escalation replies in the thread and is also shown in the channel; a de-escalation is not", () => {
    const up = notify([window("p1", "Web", 9)], new Map([["p1", firing("p1", "warn")]]));
    expect(up?.slack?.threadKey).toBe("t.alert.flaky.2026-11-16");
    expect(up?.slack?.broadcast).toBe(true);
    const down = notify([window("p1", "Web", 4)], new Map([["p1", firing("p1", "critical")]]));
    expect(down?.slack?.post.main.text).toContain(
      "Web flaky rate 4.0% \u2014 back under critical 5%, still above warn 3%",
    );
    expect(down?.slack?.broadcast).toBe(false);
  });

  it("a later mail of an incident names the fire it follows; a fire's mail starts a thread", () => {
    const fire = notify([window("p1", "Web", 9)], new Map());
    expect(fire?.email?.threadKey).toBeNull();
    const resolved = notify([window("p1", "Web", 1)], new Map([["p1", firing("p1", "warn")]]));
    expect(resolved?.email?.threadKey).toBe("t.alert.flaky.2026-11-16");
  });

  it("links each project to its dashboard, or the team's one dashboard, in Slack and in mail", () => {
    const perProject = notify([window("p1", "Web", 9)], new Map(), null, {
      dashboardUrl: "https://insights.example.com/p/{project_id}",
    });
    expect(JSON.stringify(perProject?.slack?.post.main.blocks)).toContain(
      "*<https://insights.example.com/p/p1|Web>* flaky rate 9.0%",
    );
    expect(perProject?.email?.html).toContain('href="https://insights.example.com/p/p1"');
    expect(
      checkMessage(perProject?.slack?.post.main.text, perProject?.slack?.post.main.blocks),
    ).toBeNull();
    const one = notify([window("p1", "Web", 9)], new Map(), null, {
      dashboardUrl: "https://insights.example.com/team",
    });
    expect(JSON.stringify(one?.slack?.post.main.blocks)).toContain(
      "<https://insights.example.com/team|Open dashboard>",
    );
    expect(one?.email?.html).toContain('href="https://insights.example.com/team"');
    const none = notify([window("p1", "Web", 9)], new Map(), null);
    expect(JSON.stringify(none)).not.toContain("https://");
  });
});

describe("alert owners", () => {
  const OWNERS = {
    p1: ["U1", "S9", "web@example.com"],
    p2: ["U1", "W2", "api@example.com", "web@example.com"],
  };
  const ownerLines = (blocks: unknown) =>
    (blocks as { text?: { text: string } }[])
      .flatMap((b) => b.text?.text.split("\n") ?? [])
      .filter((l) => l.includes("flaky rate"));

  it("a fire mentions its project's owners on its line, each once in the message, and copies their mail", () => {
    const n = notify([window("p1", "Web", 9), window("p2", "API", 6)], new Map(), null, {
      owners: OWNERS,
    });
    const [web, api] = ownerLines(n?.slack?.post.main.blocks);
    expect(web).toMatch(/ <@U1> <!subteam\^S9>$/);
    expect(api).toMatch(/ <@W2>$/);
    const body = JSON.stringify(n?.slack?.post.main.blocks);
    expect(body.split("<@U1>")).toHaveLength(2);
    expect(body).not.toContain("example.com");
    expect(n?.email?.cc).toEqual(["web@example.com", "api@example.com"]);
    expect(checkMessage(n?.slack?.post.main.text, n?.slack?.post.main.blocks)).toBeNull();
  });

  it("an escalation mentions the owners too", () => {
    const n = notify([window("p1", "Web", 9)], new Map([["p1", firing("p1", "warn")]]), null, {
      owners: OWNERS,
    });
    expect(n?.slack?.threadKey).toBe("t.alert.flaky.2026-11-16");
    expect(ownerLines(n?.slack?.post.main.blocks)[0]).toMatch(/ <@U1> <!subteam\^S9>$/);
    expect(n?.email?.cc).toEqual(["web@example.com"]);
  });

  it("a de-escalation or a resolution mentions and copies no one", () => {
    for (const [percent, was] of [
      [4, "critical"],
      [1, "warn"],
    ] as const) {
      const n = notify([window("p1", "Web", percent)], new Map([["p1", firing("p1", was)]]), null, {
        owners: OWNERS,
      });
      expect(n?.slack?.post.main.blocks.length).toBeGreaterThan(0);
      expect(JSON.stringify(n?.slack)).not.toMatch(/<@|<!subteam/);
      expect(n?.email?.cc).toEqual([]);
    }
  });

  it("a fire of the team total mentions no owner", () => {
    const n = notify([window("team", "Checkout team", 9)], new Map(), null, {
      owners: { ...OWNERS, team: ["U7", "team@example.com"] },
    });
    expect(n?.slack?.post.main.blocks.length).toBeGreaterThan(0);
    expect(JSON.stringify(n?.slack)).not.toMatch(/<@|<!subteam/);
    expect(n?.email?.cc).toEqual([]);
  });
});
