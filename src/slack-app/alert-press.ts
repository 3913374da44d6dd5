import * as z from "zod";
import {
  ALERT_ACTION,
  fireKeyOfBlock,
} from "../destinations/slack/messages/slack-alert-actions.js";
import type { SlackBlock } from "../messages.js";

// A press of an alert's button as Slack sends it (a `block_actions` payload), checked with zod
// where it enters and mapped at once to our own words; a payload that is not one of our buttons
// maps to null.

const action = z.object({
  action_id: z.string(),
  block_id: z.string(),
  action_ts: z.string(),
  value: z.string().optional(),
  selected_option: z.object({ value: z.string() }).optional(),
});

/** The part of a `block_actions` payload a press needs; anything else is ignored. */
const blockActions = z.object({
  type: z.literal("block_actions"),
  user: z.object({ id: z.string().min(1) }),
  channel: z.object({ id: z.string().min(1) }),
  message: z.object({
    ts: z.string(),
    thread_ts: z.string().optional(),
    text: z.string().optional(),
    blocks: z.array(z.record(z.string(), z.unknown())).optional(),
  }),
  actions: z.array(action).min(1),
});

/** A fire's key names its team and alert: `checkout.alert.flaky-rate.2026-11-15`. */
const FIRE_KEY = /^([a-z0-9-]+)\.alert\.([a-z0-9-]+)\.[0-9_-]+$/;

/** One press, in our words. */
export interface AlertPress {
  kind: "acknowledge" | "snooze" | "end_snooze";
  user: string;
  channel: string;
  /** The pressed message, and the fire's first message (its thread). */
  messageTs: string;
  threadTs: string;
  fireKey: string;
  team: string;
  alert: string;
  /** Stable across redeliveries of this press, different for every other press. */
  key: string;
  /** The snooze asked for, or the silences to end. */
  value: string;
  message: { text: string; blocks: SlackBlock[] };
}

/** The press an interactive payload carries, or null when it is not one of our buttons. */
export function parseAlertPress(body: unknown): AlertPress | null {
  const parsed = blockActions.safeParse(body);
  if (!parsed.success) return null;
  const { user, channel, message, actions } = parsed.data;
  const [pressed] = actions;
  if (!pressed) return null;
  const kind = KIND_OF[pressed.action_id];
  const fireKey = fireKeyOfBlock(pressed.block_id);
  const names = fireKey ? FIRE_KEY.exec(fireKey) : null;
  if (!kind || !fireKey || !names?.[1] || !names[2]) return null;
  return {
    kind,
    user: user.id,
    channel: channel.id,
    messageTs: message.ts,
    threadTs: message.thread_ts ?? message.ts,
    fireKey,
    team: names[1],
    alert: names[2],
    key: `${kind}:${channel.id}:${message.ts}:${pressed.action_ts}:${user.id}`,
    value: pressed.selected_option?.value ?? pressed.value ?? "",
    message: { text: message.text ?? "", blocks: (message.blocks ?? []) as SlackBlock[] },
  };
}

const KIND_OF: Record<string, AlertPress["kind"]> = {
  [ALERT_ACTION.acknowledge]: "acknowledge",
  [ALERT_ACTION.snooze]: "snooze",
  [ALERT_ACTION.endSnooze]: "end_snooze",
};
