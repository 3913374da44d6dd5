import { describe, expect, it } from "vitest";
import { evaluateAlert } from "../../src/alerts/evaluate-alert.js";
import { snoozeUntil } from "../../src/alerts/snooze-until.js";
import type { ScopeState, ScopeWindow } from "../../src/alerts/types.js";
import { buildAlertNotification } from "../../src/destinations/alert-notification.js";
import {
  ALERT_ACTION,
  actionLine,
  alertActionsBlocks,
  fireKeyOfBlock,
  snoozedContext,
} from "../../src/destinations/slack/messages/slack-alert-actions.js";
import type { SlackBlock } from "../../src/messages.js";
import { counts, rule } from "../alerts/alert-builders.js";
import { checkMessage } from "../fake-slack/check-message.js";

// The buttons of issue 24 on a firing alert's Slack messages: on the fire's first post and on its
// edits while it fires, never once it is resolved; the edit shows who acknowledged it.

const NOW = "2026-11-19T08:00:00.000Z";
const FIRE = "t.alert.flaky.2026-11-16";
const window = (scope: string, percent: number): ScopeWindow => ({
  scope,
  name: scope,
  current: counts(percent, 5_000),
  prior: counts(1, 5_000),
  daily: [counts(percent, 5_000)],
});
const warn: ScopeState = {
  scope: "p1",
  state: "warn",
  since: "2026-11-17T08:00:00.000Z",
  breaches: 1,
  lastValue: 4,
  lastNotifiedAt: "2026-11-17T08:00:00.000Z",
  firedAt: "2026-11-17T08:00:00.000Z",
  threadKey: FIRE,
};

function notify(
  windows: ScopeWindow[],
  states: Map<string, ScopeState>,
  ack = false,
  buttons = true,
  snoozed = false,
) {
  const evaluation = evaluateAlert({
    rule: rule(),
    windows,
    states,
    now: NOW,
    key: "t.alert.flaky.2026-11-18",
  });
  return buildAlertNotification({
    key: "t.alert.flaky.2026-11-18",
    team: { name: "t", title: "Checkout", timezone: "Europe/Berlin" },
    alert: {
      name: "flaky",
      metric: "flaky_rate",
      warnAt: 3,
      criticalAt: 5,
      clearAt: 2.5,
      confidence: null,
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
    buttons,
    ...(ack ? { acknowledgements: { [FIRE]: { by: "U0MARIA", at: "2026-11-19T13:05:00Z" } } } : {}),
    ...(snoozed
      ? {
          snoozes: { [FIRE]: { by: "U0JONAS", until: "2026-11-23T08:00:00Z", silenceIds: [4, 5] } },
        }
      : {}),
  });
}

const actionsOf = (blocks: readonly SlackBlock[]) => blocks.filter((b) => b.type === "actions");
const ids = (block: SlackBlock | undefined) =>
  (block?.elements as { action_id: string }[] | undefined)?.map((e) => e.action_id);

describe("alert buttons", () => {
  it("a fire's first post carries Acknowledge and a Snooze menu naming that fire, and Slack accepts it", () => {
    const post = notify([window("p1", 4)], new Map())?.slack?.post;
    const [actions] = actionsOf(post?.main.blocks ?? []);
    expect(fireKeyOfBlock(String(actions?.block_id))).toBe("t.alert.flaky.2026-11-18");
    expect(ids(actions)).toEqual([ALERT_ACTION.acknowledge, ALERT_ACTION.snooze]);
    const [, menu] = (actions?.elements ?? []) as {
      options: { text: { text: string }; value: string }[];
    }[];
    expect(menu?.options.map((o) => [o.text.text, o.value])).toEqual([
      ["Snooze 1 hour", "1h"],
      ["Snooze 1 day", "1d"],
      ["Snooze until Monday 09:00", "monday"],
    ]);
    expect(checkMessage(post?.main.text, post?.main.blocks)).toBeNull();
  });

  it("the edit of a fire still firing keeps the buttons and shows who acknowledged it, at what time in the team's zone", () => {
    const n = notify([window("p1", 6)], new Map([["p1", warn]]), true);
    const [update] = n?.slack?.updates ?? [];
    const blocks = update?.message.blocks ?? [];
    expect(ids(actionsOf(blocks)[0])).toEqual([ALERT_ACTION.acknowledge, ALERT_ACTION.snooze]);
    expect(fireKeyOfBlock(String(actionsOf(blocks)[0]?.block_id))).toBe(FIRE);
    expect(JSON.stringify(blocks)).toContain(
      "Acknowledged by <@U0MARIA> at Thu 19 Nov 14:05 Europe/Berlin",
    );
    // The reply in the thread has no buttons: they live on the fire's first message.
    expect(actionsOf(n?.slack?.post.main.blocks ?? [])).toEqual([]);
  });

  it("the edit of a fire under a snooze says until when and by whom, with End snooze in the menu's place", () => {
    const n = notify([window("p1", 6)], new Map([["p1", warn]]), false, true, true);
    const [update] = n?.slack?.updates ?? [];
    const blocks = update?.message.blocks ?? [];
    const [actions] = actionsOf(blocks);
    expect(ids(actions)).toEqual([ALERT_ACTION.acknowledge, ALERT_ACTION.endSnooze]);
    expect((actions?.elements as { value?: string }[] | undefined)?.[1]?.value).toBe("4,5");
    expect(JSON.stringify(blocks)).toContain(
      ":zzz: Snoozed until Mon 23 Nov 09:00 Europe/Berlin by <@U0JONAS>",
    );
    expect(checkMessage(update?.message.text, blocks)).toBeNull();
  });

  it("without Socket Mode (no app token, nothing to take a press) a firing alert has no buttons", () => {
    const fire = notify([window("p1", 4)], new Map(), false, false)?.slack;
    expect(actionsOf(fire?.post.main.blocks ?? [])).toEqual([]);
    const [update] =
      notify([window("p1", 6)], new Map([["p1", warn]]), false, false)?.slack?.updates ?? [];
    expect(update?.message.text).toMatch(/^Still firing/);
    expect(actionsOf(update?.message.blocks ?? [])).toEqual([]);
  });

  it("a resolved alert's first message has no buttons and no acknowledgement", () => {
    const n = notify([window("p1", 1)], new Map([["p1", warn]]), true);
    const [update] = n?.slack?.updates ?? [];
    expect(update?.message.text).toMatch(/^Resolved/);
    expect(actionsOf(update?.message.blocks ?? [])).toEqual([]);
    expect(JSON.stringify(update?.message.blocks)).not.toContain("Acknowledged");
  });

  it("leaves the buttons out rather than have Slack refuse a block id past 255 characters", () => {
    expect(alertActionsBlocks(`t.alert.${"a".repeat(221)}.2026-11-18`)).toHaveLength(1);
    expect(alertActionsBlocks(`t.alert.${"a".repeat(222)}.2026-11-18`)).toEqual([]);
  });

  it("says in the thread what was done, in words, with an End snooze button after a snooze", () => {
    const until = snoozeUntil("1d", new Date("2026-11-24T08:00:00Z"), "Europe/Berlin");
    const snoozed = actionLine({
      kind: "snoozed",
      by: "U123",
      length: "1d",
      until,
      timezone: "Europe/Berlin",
      fireKey: FIRE,
      silenceIds: [4, 5],
    });
    expect(snoozed.text).toBe(
      ":zzz: Snoozed for 1 day by <@U123> \u2014 until Wed 25 Nov 09:00 Europe/Berlin",
    );
    const [, actions] = snoozed.blocks;
    expect(actions).toMatchObject({
      elements: [{ action_id: ALERT_ACTION.endSnooze, value: "4,5" }],
    });
    expect(checkMessage(snoozed.text, snoozed.blocks)).toBeNull();
    expect(actionLine({ kind: "acknowledged", by: "U123" }).text).toBe(
      ":eyes: Acknowledged by <@U123>",
    );
    expect(actionLine({ kind: "snooze_ended", by: "U123" }).text).toBe(
      ":bell: Snooze ended by <@U123>",
    );
  });

  it("a snooze until Monday pressed on a Monday after 09:00 says which Monday: next week's, by its date", () => {
    // Mon 30 Nov, 11:00 in Berlin: this morning's 09:00 is past, so the snooze runs to 7 Dec.
    const pressedAt = new Date("2026-11-30T10:00:00Z");
    const until = snoozeUntil("monday", pressedAt, "Europe/Berlin");
    const line = actionLine({
      kind: "snoozed",
      by: "U123",
      length: "monday",
      until,
      timezone: "Europe/Berlin",
      fireKey: FIRE,
      silenceIds: [4],
    });
    expect(line.text).toBe(":zzz: Snoozed by <@U123> \u2014 until Mon 7 Dec 09:00 Europe/Berlin");
    expect(
      snoozedContext({ by: "U123", until: until.toISOString(), silenceIds: [4] }, "Europe/Berlin"),
    ).toMatchObject({
      elements: [{ text: ":zzz: Snoozed until Mon 7 Dec 09:00 Europe/Berlin by <@U123>" }],
    });
  });
});

describe("snoozeUntil", () => {
  const zone = "Europe/Berlin";
  it.each([
    ["1h", "2026-11-25T10:00:00Z", "2026-11-25T11:00:00.000Z"],
    ["1d", "2026-11-25T10:00:00Z", "2026-11-26T10:00:00.000Z"],
    // A day across the spring DST change is 23 hours: the same wall time next day.
    ["1d", "2026-03-28T10:00:00Z", "2026-03-29T09:00:00.000Z"],
    // Wednesday → the next Monday 09:00 in Berlin (08:00Z in winter).
    ["monday", "2026-11-25T10:00:00Z", "2026-11-30T08:00:00.000Z"],
    // A Monday before 09:00 → that morning; after → a week later.
    ["monday", "2026-11-30T07:00:00Z", "2026-11-30T08:00:00.000Z"],
    ["monday", "2026-11-30T08:00:00Z", "2026-12-07T08:00:00.000Z"],
  ] as const)("%s from %s ends at %s", (length, now, end) => {
    expect(snoozeUntil(length, new Date(now), zone).toISOString()).toBe(end);
  });
});
