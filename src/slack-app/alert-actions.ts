import { isFiring } from "../alerts/evaluate-alert.js";
import { snoozeOf } from "../alerts/silencing.js";
import { SNOOZE_LENGTHS, snoozeUntil } from "../alerts/snooze-until.js";
import type { Team } from "../config/types.js";
import { claimingLedger } from "../deliver/claiming-ledger.js";
import type { AlertClients } from "../destinations/registry.js";
import {
  acknowledgedContext,
  actionLine,
  isPressLine,
  withSnooze,
} from "../destinations/slack/messages/slack-alert-actions.js";
import type { SlackActionsApi } from "../destinations/slack/slack-actions-api.js";
import type { Logger } from "../logger.js";
import type { SlackBlock } from "../messages.js";
import {
  acknowledgementKey,
  deliverAcknowledgement,
  recordAcknowledgement,
} from "../pipeline/alert/acknowledge-stage.js";
import { atZone } from "../render/format.js";
import { SEND_TIMEOUT_MS } from "../state/delivery-due.js";
import type { AlertHolds, AlertStateLog, DeliveryLog, SlotLog } from "../state/ledger.js";
import type { Silence } from "../state/silences.js";
import {
  DEFAULT_RETRY_DELAYS_MS,
  MAX_RETRY_SPAN_MS,
  nextAttemptAt,
} from "../timetable/retry-delays.js";
import { type AlertPress, parseAlertPress } from "./alert-press.js";

// A press of an alert's button (issue 24): Acknowledge, a Snooze length, or End snooze. The
// envelope is acknowledged already (slack-socket.ts); here the press is checked (who may act),
// applied once through the store under the press's own key, and answered in Slack by the
// process whose write took effect. A redelivery, a second replica or a reconnect finds the key
// stored and answers nothing (ADRs 0007, 0008).

export interface AlertActionDeps {
  /** Holds, states, and the slots and deliveries an acknowledgement passed on is recorded in. */
  ledger: AlertHolds & Pick<AlertStateLog, "alertStates"> & SlotLog & DeliveryLog;
  /** Null without a bot token: the press is applied, and nothing is answered. */
  slack: SlackActionsApi | null;
  /** What tells the alert's other destinations of an acknowledgement (PagerDuty's `acknowledge`). */
  alertClients: AlertClients;
  /** The teams as configured now (a reload changes who may act). */
  teams(): readonly Team[];
  logger: Logger;
  now(): Date;
  /**
   * How an acknowledgement's sends are claimed and retried (the daemon's: its name on claims,
   * state.send_timeout, its retry delays); defaults for a press handled outside the daemon.
   */
  deliveries?: { owner: string; sendTimeoutMs: number; retryDelaysMs?: readonly number[] };
}

/** Handles one `interactive` envelope's payload; payloads that are not our buttons are ignored. */
export async function handleAlertAction(body: unknown, deps: AlertActionDeps): Promise<void> {
  const press = parseAlertPress(body);
  if (!press) return;
  const log = {
    slackUser: press.user,
    action: press.kind,
    team: press.team,
    alert: press.alert,
    fire: press.fireKey,
  };
  const team = deps.teams().find((t) => t.name === press.team);
  if (!team?.alerts.some((a) => a.name === press.alert)) {
    deps.logger.warn(log, "a Slack button names an alert the config no longer has; ignored");
    await deps.slack?.postEphemeral(
      press.channel,
      press.user,
      `The alert ${press.team}/${press.alert} is no longer configured; nothing was done.`,
    );
    return;
  }
  if (!(await mayAct(team.alertActors, press.user, deps))) {
    // Logged once answered (or the answer failed), as every outcome is: the press is handled.
    try {
      await deps.slack?.postEphemeral(press.channel, press.user, refusal(press, team.alertActors));
    } finally {
      deps.logger.info({ ...log, outcome: "refused" }, "alert action refused: not an alert actor");
    }
    return;
  }
  const outcome = await APPLY[press.kind](press, team, deps);
  deps.logger.info({ ...log, outcome }, `alert action ${outcome}`);
}

type Outcome = "applied" | "already applied" | "nothing to do";

const APPLY: Record<
  AlertPress["kind"],
  (press: AlertPress, team: Team, deps: AlertActionDeps) => Promise<Outcome>
> = {
  async acknowledge(press, team, deps) {
    const at = deps.now();
    // Recorded before the acknowledgement is stored, under the press's own key: a process that
    // stops in between leaves the pass-on due, and a redelivered press records nothing new.
    const passOn = await passOnRecorded(press, team, deps);
    const { acknowledgement, created } = await deps.ledger.acknowledge(
      {
        key: press.key,
        team: press.team,
        alert: press.alert,
        fireKey: press.fireKey,
        author: press.user,
      },
      at,
    );
    if (!created) return "already applied";
    if (passOn.length > 0) await tellDestinations(press, team, passOn, deps);
    const shown = { by: acknowledgement.author, at: acknowledgement.acknowledgedAt.toISOString() };
    // The first message as the press saw it, with the acknowledgement above its buttons.
    await answer(press, deps, "the first message", () =>
      deps.slack?.updateMessage(
        press.channel,
        press.threadTs,
        press.message.text,
        withAcknowledgement(press.message.blocks, acknowledgedContext(shown, team.timezone)),
      ),
    );
    await say(press, actionLine({ kind: "acknowledged", by: press.user }), deps);
    return "applied";
  },

  async snooze(press, team, deps) {
    const length = SNOOZE_LENGTHS.find((l) => l === press.value);
    if (!length) return "nothing to do";
    const at = deps.now();
    // The fire's scopes still firing: a silence each, under the press's key.
    const scopes = (await deps.ledger.alertStates(press.team, press.alert))
      .filter((s) => s.threadKey === press.fireKey && isFiring(s.state))
      .map((s) => s.scope);
    if (scopes.length === 0) {
      await deps.slack?.postEphemeral(
        press.channel,
        press.user,
        "This alert no longer fires: there is nothing to snooze.",
      );
      return "nothing to do";
    }
    const until = snoozeUntil(length, at, team.timezone);
    const added = await Promise.all(
      scopes.map((scope) =>
        deps.ledger.addSilence(
          {
            key: `${press.key}:${scope}`,
            team: press.team,
            alert: press.alert,
            scope,
            author: press.user,
            startsAt: at,
            endsAt: until,
          },
          at,
        ),
      ),
    );
    if (!added.some((a) => a.created)) return "already applied";
    // The first message (where the menu was pressed) shows the snooze and *End snooze*.
    await answer(press, deps, "the first message", () => showSnooze(press, team, scopes, at, deps));
    const line = actionLine({
      kind: "snoozed",
      by: press.user,
      length,
      until,
      timezone: team.timezone,
      fireKey: press.fireKey,
      silenceIds: added.map((a) => a.silence.id),
    });
    await say(press, line, deps);
    return "applied";
  },

  async end_snooze(press, team, deps) {
    // Only this alert's silences: a value is ours, but a wrong id must not end another's.
    const ours = new Set(
      (await deps.ledger.silences({ team: press.team }))
        .filter((s) => s.alert === press.alert)
        .map((s) => s.id),
    );
    const ids = press.value
      .split(",")
      .map(Number)
      .filter((id) => ours.has(id));
    const at = deps.now();
    const ended = await Promise.all(ids.map((id) => deps.ledger.endSilence(id, press.user, at)));
    const mine = ended.filter((e) => e.outcome === "ended");
    if (mine.length === 0) {
      // A second press, or the button of a snooze over since: say so, rather than nothing.
      const over = ended.flatMap((e) => (e.outcome === "already_over" ? [e.silence] : []));
      await deps.slack?.postEphemeral(press.channel, press.user, snoozeOver(over, team.timezone));
      return "already applied";
    }
    // The first message shows what still holds on the fire: the menu again, when nothing does.
    const scopes = (await deps.ledger.alertStates(press.team, press.alert))
      .filter((s) => s.threadKey === press.fireKey)
      .map((s) => s.scope);
    await answer(press, deps, "the first message", () => showSnooze(press, team, scopes, at, deps));
    await say(press, actionLine({ kind: "snooze_ended", by: press.user }), deps);
    return "applied";
  },
};

/**
 * Records the acknowledgement's slot for the destinations that keep the fire's state; the
 * destinations it was recorded with (by this press or an earlier delivery of it), or none.
 */
async function passOnRecorded(
  press: AlertPress,
  team: Team,
  deps: AlertActionDeps,
): Promise<string[]> {
  const alert = team.alerts.find((a) => a.name === press.alert);
  if (!alert) return [];
  const key = acknowledgementKey(press.fireKey, press.key);
  const sendTimeoutMs = deps.deliveries?.sendTimeoutMs ?? SEND_TIMEOUT_MS;
  await recordAcknowledgement(
    { key, team: team.name, alert },
    { ledger: deps.ledger, clients: deps.alertClients, now: deps.now, sendTimeoutMs },
  );
  return (await deps.ledger.getSlot(key))?.deliveries.map((d) => d.destination) ?? [];
}

/**
 * Tells the destinations that keep the fire's state themselves (PagerDuty) that it was
 * acknowledged: once, by the process whose acknowledgement was recorded (`created`), so a
 * redelivered press or a second replica sends nothing. The send is a recorded slot: a failure
 * is retried by the daemon on the delivery backoff, within a day; the acknowledgement stands
 * in the ledger and in Slack either way.
 */
async function tellDestinations(
  press: AlertPress,
  team: Team,
  recorded: readonly string[],
  deps: AlertActionDeps,
) {
  const alert = team.alerts.find((a) => a.name === press.alert);
  if (!alert) return;
  const owner = deps.deliveries?.owner ?? `Slack press pid ${process.pid}`;
  const sendTimeoutMs = deps.deliveries?.sendTimeoutMs ?? SEND_TIMEOUT_MS;
  const delays = deps.deliveries?.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  const deadline = new Date(deps.now().getTime() + MAX_RETRY_SPAN_MS);
  await deliverAcknowledgement(acknowledgementKey(press.fireKey, press.key), alert, recorded, {
    // Its own pass-on, whose retry is not due yet: taken as `run` takes an open failure.
    ledger: claimingLedger(deps.ledger, {
      owner,
      sendTimeoutMs,
      take: "open",
      lookFirst: false,
      retryIfUnfinished: true,
    }),
    clients: deps.alertClients,
    logger: deps.logger,
    retryAt: (attempts, notBefore) =>
      nextAttemptAt(attempts, deps.now(), deadline, delays, notBefore),
  });
}

/** Whether `user` is listed, or in a listed user group; anyone when no list is configured. */
async function mayAct(
  actors: readonly string[] | null,
  user: string,
  deps: AlertActionDeps,
): Promise<boolean> {
  if (actors === null || actors.includes(user)) return true;
  for (const group of actors.filter((a) => a.startsWith("S"))) {
    try {
      if ((await deps.slack?.groupMembers(group))?.includes(user)) return true;
    } catch (error) {
      // An unreadable group admits no one: refusing is the safe side of a permission check.
      deps.logger.warn(
        { group, error: String(error) },
        "could not read a Slack user group's members",
      );
    }
  }
  return false;
}

/** "Only <!subteam^S1> or <@U2> can snooze this alert." */
function refusal(press: AlertPress, actors: readonly string[] | null): string {
  const who = (actors ?? []).map((a) => (a.startsWith("S") ? `<!subteam^${a}>` : `<@${a}>`));
  const verb = { acknowledge: "acknowledge", snooze: "snooze", end_snooze: "end the snooze of" }[
    press.kind
  ];
  const list = who.length > 1 ? `${who.slice(0, -1).join(", ")} or ${who.at(-1)}` : who[0];
  return `Only ${list} can ${verb} this alert.`;
}

/** "This snooze was ended already, by <@U…> at Wed 25 Nov 14:05 Europe/Berlin." or "… ran out at …". */
function snoozeOver(over: readonly Silence[], timezone: string): string {
  const [last] = [...over].sort(
    (a, b) => (b.endedAt ?? b.endsAt).getTime() - (a.endedAt ?? a.endsAt).getTime(),
  );
  if (!last) return "This snooze is over already: there is nothing to end.";
  if (last.endedAt) {
    return `This snooze was ended already, by <@${last.endedBy ?? "?"}> at ${atZone(last.endedAt, timezone)}: there is nothing to end.`;
  }
  return `This snooze ran out at ${atZone(last.endsAt, timezone)}: there is nothing to end.`;
}

/** The first message's blocks with the acknowledgement shown above its buttons (replacing an older one). */
function withAcknowledgement(blocks: readonly SlackBlock[], ack: SlackBlock): SlackBlock[] {
  const kept = blocks.filter((b) => !isPressLine(b, "acknowledged"));
  // Above a snooze's line and the buttons, in the order the evaluation's edits show them.
  const at = kept.findIndex((b) => b.type === "actions" || isPressLine(b, "snoozed"));
  return at === -1 ? [...kept, ack] : [...kept.slice(0, at), ack, ...kept.slice(at)];
}

/**
 * Edits the fire's first message to show the snooze that holds on `scopes` now, or none. The
 * message is the pressed one when the press was on it; a press in the thread reads it first.
 */
async function showSnooze(
  press: AlertPress,
  team: Team,
  scopes: readonly string[],
  at: Date,
  deps: AlertActionDeps,
): Promise<void> {
  if (!deps.slack) return;
  const root =
    press.messageTs === press.threadTs
      ? press.message
      : await deps.slack.firstMessage(press.channel, press.threadTs);
  if (!root) return;
  const holding = await deps.ledger.silences({ team: press.team, activeAt: at });
  const snooze = snoozeOf(
    holding.filter((s) => s.alert === press.alert),
    scopes,
    at.toISOString(),
  );
  const blocks = withSnooze(root.blocks, press.fireKey, snooze, team.timezone);
  await deps.slack.updateMessage(press.channel, press.threadTs, root.text, blocks);
}

/** A line in the fire's thread. */
async function say(
  press: AlertPress,
  line: { text: string; blocks: SlackBlock[] },
  deps: AlertActionDeps,
): Promise<void> {
  await answer(press, deps, "the thread", () =>
    deps.slack?.postInThread(press.channel, press.threadTs, line.text, line.blocks),
  );
}

/**
 * One answer in Slack, after the store write: a failure is logged and not retried (ADR 0008),
 * and does not keep the press's other answer from being tried (an edit refused, the thread
 * line still written). The next edit of the first message shows what stands then.
 */
async function answer(
  press: AlertPress,
  deps: AlertActionDeps,
  where: string,
  call: () => Promise<void> | undefined,
): Promise<void> {
  try {
    await call();
  } catch (error) {
    deps.logger.warn(
      { slackUser: press.user, action: press.kind, fire: press.fireKey, error: String(error) },
      `could not answer in ${where}; what the press stored holds all the same`,
    );
  }
}
