import { formIncident, type IncidentFire } from "../../alerts/form-incident.js";
import type { AlertConfig, IncidentsConfig, Team } from "../../config/types.js";
import {
  type DeliveryJob,
  type DeliveryLedger,
  deliverAll,
  type RetryAt,
} from "../../deliver/deliver-all.js";
import type {
  DestinationModule,
  IncidentRenderInput,
} from "../../destinations/destination-module.js";
import {
  type AlertClients,
  type AlertTargetOf,
  DESTINATION_KINDS,
  DESTINATIONS,
  type DestinationKind,
  type DestinationShapes,
} from "../../destinations/registry.js";
import type {
  SlackAlertDestination,
  SlackDestination,
} from "../../destinations/slack/slack-clients.js";
import { slackDestinationId } from "../../destinations/slack/slack-id.js";
import {
  slackIncidentJob,
  slackIncidentResolutionJob,
} from "../../destinations/slack/slack-incident-job.js";
import type { Logger } from "../../logger.js";
import type {
  IncidentMemberRecord,
  IncidentRecord,
  IncidentStore,
  StoredIncident,
} from "../../state/incidents.js";
import type { AlertStateLog, DeliveryLog, NewSlot, SlotLog } from "../../state/ledger.js";
import { alertSlot } from "../alert/alert-slot.js";

// The incident step (issue 38 item 3), after the alerts due at one fire instant have evaluated
// and their own messages went out: gather the projects that started firing at that instant →
// `formIncident` (pure) → record the incident as a slot of its own → deliver it; then resolve
// each open incident whose last member stopped firing. Replicas that reach the same instant
// gather the same fires from the ledger, and the ledger records and claims each slot once.
// Slack gets a post with a thread and a line on each member's message; every other kind named
// in `incidents:` gets the incident as its module renders it (`renderIncident`), sent by the
// kind's alert job, and again when the incident resolves.

/** An alert that fires at the instant, with its team. */
export interface IncidentAlert {
  team: Team;
  alert: AlertConfig;
}

export interface IncidentDeps {
  config: IncidentsConfig;
  ledger: IncidentStore &
    Pick<SlotLog, "getSlot"> &
    Pick<AlertStateLog, "alertStates" | "getAlertEvaluation"> &
    Pick<DeliveryLog, "partsDone">;
  /** The ledger as the incident's deliveries claim it (the daemon's: only what is due). */
  deliveries: DeliveryLedger;
  /** Slack's clients: an incident there is a post with a thread, and a line on each member's. */
  slack: { digest: SlackDestination; alert: SlackAlertDestination } | null;
  /** What sends an alert's messages, by kind: every other kind sends the incident the same way. */
  clients: AlertClients;
  logger: Logger;
  retryAt?: RetryAt;
}

/** The key of the incident formed at `fire`; its resolution's key adds `.resolved`. */
export const incidentKey = (fire: Date) => `incident.${fire.toISOString()}`;
const RESOLVED = ".resolved";

/**
 * The step for the alerts due at `fire`: "waiting" while one of them is not recorded yet or its
 * own message is still going out (the incident's line needs it), else "done".
 */
export async function runIncidents(
  fire: Date,
  alerts: readonly IncidentAlert[],
  deps: IncidentDeps,
): Promise<"waiting" | "done"> {
  const fires = await firesAt(fire, alerts, deps);
  if (fires === null) return "waiting";
  const plan = formIncident(fires, deps.config.minProjects);
  if (plan) {
    const channelOf = new Map(fires.map((f) => [f.fireKey, f.channel]));
    const record: IncidentRecord = {
      summary: plan.summary,
      channel: deps.config.slack?.channel ?? null,
      members: plan.members.map((m) => ({
        team: m.team,
        alert: m.alert,
        metric: m.metric,
        scope: m.scope,
        name: m.name,
        value: m.value,
        fireKey: m.fireKey,
        channel: channelOf.get(m.fireKey) ?? null,
      })),
    };
    const key = incidentKey(fire);
    const fresh = await deps.ledger.recordIncident(
      slotOf(key, "incident", fire, record, deps.config),
      record,
    );
    if (fresh) deps.logger.info({ slot: key, summary: plan.summary }, "incident formed");
    await deliverIncident(key, deps);
  }
  await resolveIncidents(fire, deps);
  return "done";
}

/** Delivers a recorded incident or resolution again (a retry of its slot). */
export async function deliverIncident(key: string, deps: IncidentDeps): Promise<void> {
  const resolving = key.endsWith(RESOLVED);
  const incident = await deps.ledger.getIncident(resolving ? key.slice(0, -RESOLVED.length) : key);
  const slot = await deps.ledger.getSlot(key);
  if (!incident || !slot) return;
  const owed = new Set(slot.deliveries.map((d) => d.destination));
  const input: IncidentRenderInput = {
    key,
    incidentKey: incident.key,
    record: incident.record,
    resolved: resolving,
    now: slot.fireAt.toISOString(),
  };
  const jobs = [
    ...(await slackJobs(key, incident, resolving, slot.fireAt, deps)),
    ...OTHER_KINDS.flatMap((kind) => otherJob(kind, input, deps)),
  ].filter((job) => owed.has(job.id));
  if (jobs.length === 0) return;
  const results = await deliverAll(key, jobs, {
    ledger: deps.deliveries,
    logger: deps.logger,
    ...(deps.retryAt ? { retryAt: deps.retryAt } : {}),
  });
  deps.logger.info(
    { slot: key, delivery: results.map((r) => `${r.id}: ${r.status}`) },
    "incident delivered",
  );
}

/** The kinds that send an incident as they send an alert's message (Slack has its own thread). */
const OTHER_KINDS = DESTINATION_KINDS.filter(
  (kind): kind is Exclude<DestinationKind, "slack"> => kind !== "slack",
);

/** The incident's job for one of the other kinds; none where it has no destination or client. */
function otherJob<K extends Exclude<DestinationKind, "slack">>(
  kind: K,
  input: IncidentRenderInput,
  deps: IncidentDeps,
): DeliveryJob[] {
  const module = DESTINATIONS[kind] as DestinationModule<K, DestinationShapes[K]>;
  const target = deps.config[kind] as AlertTargetOf<K> | null;
  const client = deps.clients[kind] as DestinationShapes[K]["clients"]["alert"] | null;
  if (!target || !client || !module.renderIncident) return [];
  const message = module.renderIncident(target as never, input);
  const jobDeps = { logger: deps.logger, since: new Date(input.now), threadTs: async () => null };
  return [module.alertJob(input.key, message, client, jobDeps, target)];
}

/** The incident's Slack job: its post and thread, or the resolution's edit and reply. */
async function slackJobs(
  key: string,
  incident: StoredIncident,
  resolving: boolean,
  since: Date,
  deps: IncidentDeps,
): Promise<DeliveryJob[]> {
  const channel = incident.record.channel;
  if (!channel || !deps.slack) return [];
  const slack = deps.slack;
  const job = resolving
    ? slackIncidentResolutionJob(
        key,
        { ...incident, ts: await postedTs(incident.key, channel, deps) },
        channel,
        { slack, since },
      )
    : slackIncidentJob(key, incident.record, channel, {
        slack,
        logger: deps.logger,
        since,
        memberMessage: async (fireKey, memberChannel) => {
          const ts = await postedTs(fireKey, memberChannel, deps);
          const evaluation = await deps.ledger.getAlertEvaluation(fireKey);
          const main = evaluation?.notification?.slack?.post.main;
          return ts && main ? { ts, message: main } : null;
        },
      });
  return [job];
}

type GatheredFire = IncidentFire & { channel: string | null };

/** The projects that started firing at `fire`, from the ledger; null while any is not settled. */
async function firesAt(
  fire: Date,
  alerts: readonly IncidentAlert[],
  deps: IncidentDeps,
): Promise<GatheredFire[] | null> {
  const fires: GatheredFire[] = [];
  for (const { team, alert } of alerts) {
    const { key } = alertSlot({ team, alert, fireAt: fire });
    const slot = await deps.ledger.getSlot(key);
    if (!slot) return null;
    // Evaluated at an earlier fire of the same window: not this instant's news.
    if (slot.fireAt.getTime() !== fire.getTime()) continue;
    if (slot.deliveries.some((d) => d.state === "pending" || d.state === "sending")) return null;
    const evaluation = await deps.ledger.getAlertEvaluation(key);
    for (const result of evaluation?.results ?? []) {
      if (result.transition !== "fired") continue;
      fires.push({
        team: team.name,
        alert: alert.name,
        metric: alert.metric,
        scope: result.scope,
        name: result.name,
        value: result.value,
        fireKey: key,
        channel: alert.slack?.channel ?? null,
      });
    }
  }
  return fires;
}

/** Resolves, once, each open incident none of whose members fires any more. */
async function resolveIncidents(fire: Date, deps: IncidentDeps): Promise<void> {
  for (const incident of await deps.ledger.openIncidents()) {
    if (incident.fireAt.getTime() >= fire.getTime()) continue;
    if (await anyStillFiring(incident.record.members, deps)) continue;
    const key = `${incident.key}${RESOLVED}`;
    const resolved = await deps.ledger.resolveIncident(
      incident.key,
      slotOf(key, "resolved", fire, incident.record, deps.config),
    );
    if (!resolved) continue; // another replica resolved it, and delivers it
    deps.logger.info({ slot: key, incident: incident.key }, "incident resolved");
    await deliverIncident(key, deps);
  }
}

async function anyStillFiring(
  members: readonly IncidentMemberRecord[],
  deps: IncidentDeps,
): Promise<boolean> {
  for (const m of members) {
    const states = await deps.ledger.alertStates(m.team, m.alert);
    const firing = states.some(
      (s) =>
        s.scope === m.scope &&
        s.threadKey === m.fireKey &&
        (s.state === "warn" || s.state === "critical"),
    );
    if (firing) return true;
  }
  return false;
}

/** What `history` says of an incident's destination recorded but not claimed yet. */
const NOT_SENT_YET = "not sent yet: the incident goes out once a daemon claims the send";

/**
 * An incident's or resolution's slot, each destination owed a retry due at the fire instant
 * (never pending): the instant is in the daemon's memory only, so a process that stops between
 * this write and its send's claim leaves the next daemon's due retries to send it.
 */
function slotOf(
  key: string,
  job: string,
  fire: Date,
  record: IncidentRecord,
  config: IncidentsConfig,
): NewSlot {
  const day = fire.toISOString().slice(0, 10);
  return {
    key,
    // Incidents span teams: "*" names all of them in `history`.
    team: "*",
    kind: "incident",
    job,
    fireAt: fire,
    period: { start: day, end: day },
    destinations: [
      ...(record.channel ? [slackDestinationId(record.channel)] : []),
      ...OTHER_KINDS.flatMap((kind) => {
        const target = config[kind];
        return target ? [DESTINATIONS[kind].id(target as never)] : [];
      }),
    ],
    owedRetry: { error: NOT_SENT_YET, dueAt: fire },
  };
}

/** The ts of a slot's post in a channel: its delivery's, or its recorded post part. */
async function postedTs(key: string, channel: string, deps: IncidentDeps): Promise<string | null> {
  const id = slackDestinationId(channel);
  const slot = await deps.ledger.getSlot(key);
  const ts = slot?.deliveries.find((d) => d.destination === id)?.ref;
  return ts ?? (await deps.ledger.partsDone(key, id)).get("post") ?? null;
}
