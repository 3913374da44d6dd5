import { SNOOZE_LABEL, SNOOZE_LENGTHS, type SnoozeLength } from "../../../alerts/snooze-until.js";
import type { SlackBlock } from "../../../messages.js";
import type { Acknowledged, Snoozed } from "../../../render/alert/alert-view.js";
import { atZone } from "../../../render/format.js";

// The buttons under a firing alert's message and the words of what people did with them
// (issue 24). What a press needs is in the block: its id names the fire (its evaluation key,
// which names the team and the alert); the values say only "ack", a snooze length, or the
// silences to end. Nothing secret, and small (Slack caps a block id at 255 characters).

export const ALERT_ACTIONS_BLOCK = "insights_alert";

export const ALERT_ACTION = {
  acknowledge: "alert_acknowledge",
  snooze: "alert_snooze",
  endSnooze: "alert_end_snooze",
} as const;

/** The block id of a fire's buttons: `insights_alert:<fire key>`. */
export function alertActionsBlockId(fireKey: string): string {
  return `${ALERT_ACTIONS_BLOCK}:${fireKey}`;
}

/** The fire key a block id names, or null when the block is not ours. */
export function fireKeyOfBlock(blockId: string): string | null {
  const prefix = `${ALERT_ACTIONS_BLOCK}:`;
  return blockId.startsWith(prefix) && blockId.length > prefix.length
    ? blockId.slice(prefix.length)
    : null;
}

const plain = (text: string) => ({ type: "plain_text", text, emoji: true });

/** Slack refuses a message whose block id is longer. */
const BLOCK_ID_CHARS = 255;

/**
 * *Acknowledge* and a *Snooze* menu (1 hour, 1 day, until Monday 09:00) for a fire — or, while
 * a snooze holds, *End snooze* in the menu's place; none when the fire's key is too long for a
 * block id (team and alert names hundreds of characters long).
 */
export function alertActionsBlocks(fireKey: string, snoozed: Snoozed | null = null): SlackBlock[] {
  if (alertActionsBlockId(fireKey).length > BLOCK_ID_CHARS) return [];
  return [alertActionsBlock(fireKey, snoozed)];
}

function alertActionsBlock(fireKey: string, snoozed: Snoozed | null): SlackBlock {
  return {
    type: "actions",
    block_id: alertActionsBlockId(fireKey),
    elements: [
      {
        type: "button",
        action_id: ALERT_ACTION.acknowledge,
        text: plain("Acknowledge"),
        value: "ack",
      },
      snoozed ? endSnoozeButton(snoozed.silenceIds) : snoozeMenu(),
    ],
  };
}

const snoozeMenu = () => ({
  type: "static_select",
  action_id: ALERT_ACTION.snooze,
  placeholder: plain("Snooze\u2026"),
  options: SNOOZE_LENGTHS.map((length) => ({
    text: plain(`Snooze ${SNOOZE_LABEL[length]}`),
    value: length,
  })),
});

const endSnoozeButton = (silenceIds: readonly number[]) => ({
  type: "button",
  action_id: ALERT_ACTION.endSnooze,
  text: plain("End snooze"),
  value: silenceIds.join(","),
});

/**
 * The block ids of a fire's first message's lines about a press: an edit finds (and replaces)
 * them by these.
 */
export const ACKNOWLEDGED_BLOCK = "insights_acknowledged";
export const SNOOZED_BLOCK = "insights_snoozed";

const PRESS_LINES = {
  acknowledged: { blockId: ACKNOWLEDGED_BLOCK, wordsBeforeIds: ":eyes: Acknowledged by <@" },
  snoozed: { blockId: SNOOZED_BLOCK, wordsBeforeIds: ":zzz: Snoozed" },
} as const;

/**
 * Whether a block of a fire's first message is its line about an acknowledgement or a snooze:
 * by its block id, or, on a message posted by an earlier build (whose lines had no id of ours),
 * by the words it wrote there, so a snooze shown before an upgrade is still replaced when it
 * ends. The renderer writes no other line starting with those words.
 */
export function isPressLine(block: SlackBlock, kind: keyof typeof PRESS_LINES): boolean {
  const line = PRESS_LINES[kind];
  if (block.block_id === line.blockId) return true;
  if (block.type !== "context") return false;
  const [first] = (block.elements as { text?: unknown }[] | undefined) ?? [];
  return typeof first?.text === "string" && first.text.startsWith(line.wordsBeforeIds);
}

/** "Snoozed until Mon 30 Nov 09:00 Europe/Berlin by <@U…>", for the fire's first message. */
export function snoozedContext(snoozed: Snoozed, timezone: string): SlackBlock {
  const until = atZone(new Date(snoozed.until), timezone);
  return {
    type: "context",
    block_id: SNOOZED_BLOCK,
    elements: [{ type: "mrkdwn", text: `:zzz: Snoozed until ${until} by <@${snoozed.by}>` }],
  };
}

/**
 * A fire's first message (as Slack holds it) with its snooze shown, or with no snooze when
 * `snoozed` is null: the "Snoozed until …" line above the buttons, and *End snooze* in place of
 * the menu. A message without the fire's buttons is returned as it is.
 */
export function withSnooze(
  blocks: readonly SlackBlock[],
  fireKey: string,
  snoozed: Snoozed | null,
  timezone: string,
): SlackBlock[] {
  const blockId = alertActionsBlockId(fireKey);
  const at = blocks.findIndex((b) => b.type === "actions" && b.block_id === blockId);
  if (at === -1) return [...blocks];
  const before = blocks.slice(0, at).filter((b) => !isPressLine(b, "snoozed"));
  return [
    ...before,
    ...(snoozed ? [snoozedContext(snoozed, timezone)] : []),
    alertActionsBlock(fireKey, snoozed),
    ...blocks.slice(at + 1),
  ];
}

/** "Acknowledged by <@U…> at Wed 25 Nov 14:05 Europe/Berlin", in the team's zone, for the fire's first message. */
export function acknowledgedContext(ack: Acknowledged, timezone: string): SlackBlock {
  return {
    type: "context",
    block_id: ACKNOWLEDGED_BLOCK,
    elements: [
      {
        type: "mrkdwn",
        text: `:eyes: Acknowledged by <@${ack.by}> at ${atZone(new Date(ack.at), timezone)}`,
      },
    ],
  };
}

/** A thread line of what someone did, with an *End snooze* button after a snooze. */
export type ActionLine =
  | { kind: "acknowledged"; by: string }
  | {
      kind: "snoozed";
      by: string;
      length: SnoozeLength;
      until: Date;
      timezone: string;
      fireKey: string;
      silenceIds: readonly number[];
    }
  | { kind: "snooze_ended"; by: string };

/** The thread line, e.g. "Snoozed for 1 day by <@U123> — until Thu 26 Nov 09:00 Europe/Berlin". */
export function actionLine(line: ActionLine): { text: string; blocks: SlackBlock[] } {
  switch (line.kind) {
    case "acknowledged": {
      const text = `:eyes: Acknowledged by <@${line.by}>`;
      return { text, blocks: [mrkdwn(text)] };
    }
    case "snooze_ended": {
      const text = `:bell: Snooze ended by <@${line.by}>`;
      return { text, blocks: [mrkdwn(text)] };
    }
    case "snoozed": {
      const length = line.length === "monday" ? "" : ` for ${SNOOZE_LABEL[line.length]}`;
      const until = atZone(line.until, line.timezone);
      const text = `:zzz: Snoozed${length} by <@${line.by}> \u2014 until ${until}`;
      return {
        text,
        blocks: [
          mrkdwn(text),
          {
            type: "actions",
            block_id: alertActionsBlockId(line.fireKey),
            elements: [endSnoozeButton(line.silenceIds)],
          },
        ],
      };
    }
  }
}

const mrkdwn = (text: string): SlackBlock => ({ type: "section", text: { type: "mrkdwn", text } });
