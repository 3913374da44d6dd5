import type { DigestConfig, Team } from "../config/types.js";
import type { Clients } from "../create-deps.js";
import { claimingLedger } from "../deliver/claiming-ledger.js";
import type { DeliveryResult } from "../deliver/deliver-all.js";
import { escapeMrkdwn } from "../destinations/slack/messages/escape-mrkdwn.js";
import { worthRetrying } from "../errors.js";
import { createRequestCache } from "../insights/collect-insights.js";
import type { Logger } from "../logger.js";
import type { DaemonMetrics } from "../ops/metrics.js";
import { digestSlot, latestDigestFire } from "../pipeline/digest/digest-slot.js";
import { runDigest } from "../pipeline/digest/run-digest.js";
import { fireAtWords } from "../render/fire-words.js";
import { atZone, formatPeriod } from "../render/format.js";
import { metricLabels } from "../scheduler/jobs.js";
import { slotResult } from "../scheduler/settle-slot.js";
import { sendingElsewhere } from "../state/delivery-due.js";
import type { Delivery, Ledger } from "../state/ledger.js";
import { firstRetryAt } from "../timetable/retry-delays.js";

// `/insights digest <team> [digest]` (issue 24): the digest posted now, to the team's own
// destinations, for the slot of the schedule's latest fire (issue 36: the daemon's own slot, not
// a period of its own that would overlap the next fire's) — recorded in the ledger under the
// same slot key the schedule uses, as `run` does, so neither the schedule nor a repeat of the
// command (a redelivered envelope, a second replica, a second person) posts that period again. Each
// destination is claimed at the moment of sending; on a shared ledger the run itself is claimed
// first, so replicas fetch and render it once.

export interface DigestNowDeps {
  ledger: Ledger;
  clients: Pick<Clients, "api" | "digests" | "chartPainter">;
  sendTimeoutMs: number;
  /** Who claims the sends: `slash command by U0MARIA, daemon pid 12 on web-1`. */
  owner(asker: string): string;
  logger: Logger;
  now(): Date;
  /**
   * Runs the digest as one of the daemon's own (`Daemon.runUnscheduled`): in its running list
   * and waited for at shutdown within the grace, like a scheduled slot; null once it is
   * stopping. Without it the digest just runs.
   */
  runUnscheduled?: <T>(key: string, work: () => Promise<T>) => Promise<T> | null;
  /** Counts the run in `slots_total`, with `trigger="slash_command"`. */
  metrics?: Pick<DaemonMetrics, "slotFinished"> | null;
}

/** What asking for a digest now came to, for the asker's answer. */
export type DigestNowOutcome =
  | { kind: "posted"; key: string; period: string; deliveries: DeliveryResult[] }
  /** Sent to every destination already. */
  | { kind: "delivered"; key: string; period: string; deliveries: Delivery[] }
  | { kind: "busy"; key: string; period: string }
  /** The daemon is shutting down: nothing was started. */
  | { kind: "stopping"; key: string; period: string }
  /** The schedule has not fired in the past year: there is no slot to post. */
  | { kind: "no-fire"; key: null; period: null };

/** Posts a digest now, or says why it was not; one per slot at a time within this process. */
export function createDigestNow(deps: DigestNowDeps) {
  const running = new Set<string>();

  /** Claims, fetches, renders and sends the digest; counted in `slots_total` when it ends. */
  async function post(
    job: { team: Team; digest: DigestConfig; fireAt: Date },
    key: string,
    period: string,
    asker: string,
    starting: (period: string) => Promise<void>,
  ): Promise<DigestNowOutcome> {
    const owner = deps.owner(asker);
    const run = deps.ledger.shared
      ? await deps.ledger.claimSlotRun(key, owner, deps.sendTimeoutMs)
      : null;
    if (deps.ledger.shared && !run) return { kind: "busy", key, period };
    const labels = metricLabels(job.team.name, "digest", job.digest.name);
    try {
      await starting(period);
      const outcome = await runDigest(job, {
        api: deps.clients.api,
        ...deps.clients.digests,
        chartPainter: deps.clients.chartPainter,
        ledger: claimingLedger(deps.ledger, {
          owner,
          sendTimeoutMs: deps.sendTimeoutMs,
          take: "open",
        }),
        firingAlerts: (name) => deps.ledger.firingAlerts(name),
        alertEvaluations: (query) => deps.ledger.alertEvaluations(query),
        cache: createRequestCache(),
        logger: deps.logger.child({ slackUser: asker, trigger: "slash command" }),
        // A failure is left for the daemon's retries, as a failed `run` is.
        retryAt: firstRetryAt(deps.now),
      }).catch((error: unknown) => {
        deps.metrics?.slotFinished(labels, "failed", deps.now(), "slash_command");
        throw error;
      });
      const slot = await deps.ledger.getSlot(key);
      deps.metrics?.slotFinished(
        labels,
        slotResult(slot?.deliveries ?? null),
        deps.now(),
        "slash_command",
      );
      return { kind: "posted", key, period, deliveries: outcome.deliveries };
    } finally {
      if (run) await deps.ledger.releaseSlotRun(key, run);
    }
  }

  return async function digestNow(
    team: Team,
    digest: DigestConfig,
    asker: string,
    /** Told the period once the digest is really going to be fetched and posted. */
    starting: (period: string) => Promise<void> = async () => {},
  ): Promise<DigestNowOutcome> {
    const now = deps.now();
    const fireAt = latestDigestFire(team, digest, now);
    if (fireAt === null) return { kind: "no-fire", key: null, period: null };
    const job = { team, digest, fireAt };
    const { key, periods } = digestSlot(job);
    // Which fire it is, since that may not be today's: "Nov 26, 2026 (the fire of Fri Nov 27 09:00 CET)".
    const period = `${formatPeriod(periods.current)} (${fireAtWords(fireAt, team.timezone)})`;
    const slot = await deps.ledger.getSlot(key);
    // Only a slot sent everywhere is done; one whose destination failed for good is tried again
    // (its cause fixed, the asker asks again), as `run` takes any failure.
    if (slot && slot.deliveries.length > 0 && slot.deliveries.every((d) => d.state === "sent")) {
      return { kind: "delivered", key, period, deliveries: slot.deliveries };
    }
    const at = { now, sendTimeoutMs: deps.sendTimeoutMs };
    if (running.has(key) || slot?.deliveries.some((d) => sendingElsewhere(d, at))) {
      return { kind: "busy", key, period };
    }
    running.add(key);
    try {
      const run = (deps.runUnscheduled ?? ((_key, work) => work()))(key, () =>
        post(job, key, period, asker, starting),
      );
      return (await run) ?? { kind: "stopping", key, period };
    } finally {
      running.delete(key);
    }
  };
}

/** The asker's answer: what was posted where, or why nothing was. */
export function describeDigestNow(
  team: Team,
  digest: DigestConfig,
  outcome: DigestNowOutcome,
): string {
  if (outcome.kind === "no-fire") {
    return `The ${digest.name} digest of ${team.name} has no scheduled fire in the past year (\`${digest.schedule}\`), so there is no period to post.`;
  }
  const what = `The ${digest.name} digest of ${team.name} for ${outcome.period}`;
  switch (outcome.kind) {
    case "busy":
      return `${what} is being posted right now; look in its channel in a minute.`;
    case "stopping":
      return `${what} was not posted: the reporter is shutting down. Ask again once it is back.`;
    case "delivered": {
      const done = outcome.deliveries.map(
        (d) => `${destinationWords(d.destination)} at ${atZone(d.updatedAt, team.timezone)}`,
      );
      return `${what} was already posted: ${done.join("; ")}. It is not posted twice.`;
    }
    case "posted": {
      if (outcome.deliveries.length === 0) return `${what} has no destination to post to.`;
      return [`${what}:`, ...outcome.deliveries.map(deliveryLine)].join("\n");
    }
  }
}

function deliveryLine(delivery: DeliveryResult): string {
  const where = destinationWords(delivery.id);
  switch (delivery.status) {
    case "sent":
      return `\u2713 posted to ${where}`;
    case "recovered":
    case "already-sent":
      return `= ${where} had it already; not posted again`;
    case "waiting":
      return `\u2026 ${where} is being sent by another process right now`;
    case "failed":
      return `\u2717 ${where} failed: ${escapeMrkdwn(delivery.error?.message ?? "unknown error")} \u2014 ${worthRetrying(delivery.error) ? "the daemon tries again" : "not retried: fix the cause, then ask again"}`;
  }
}

/** `slack:C0123ABCD` → `<#C0123ABCD>`, which Slack shows as the channel's name; others as they are. */
function destinationWords(id: string): string {
  const channel = /^slack:([CG][A-Z0-9]+)$/.exec(id)?.[1];
  return channel ? `<#${channel}>` : id;
}
