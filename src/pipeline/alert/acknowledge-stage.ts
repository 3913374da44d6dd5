import type { AlertConfig } from "../../config/types.js";
import {
  type DeliveryLedger,
  type DeliveryResult,
  deliverAll,
  type RetryAt,
} from "../../deliver/deliver-all.js";
import { acknowledgementJobs } from "../../destinations/delivery-jobs.js";
import type { AlertClients } from "../../destinations/registry.js";
import type { Logger } from "../../logger.js";
import type { AlertHolds, SlotLog } from "../../state/ledger.js";

// An acknowledgement from Slack passed on to the destinations that keep a fire's state
// themselves (PagerDuty's `acknowledge`), durably: it is a slot of its own, recorded with its
// destinations before anything is sent, and each of them stays a failure with a retry due until
// it is sent. A failed send is retried on the delivery backoff by the daemon (the scheduler
// finds it among the due retries); the claim of each send leaves it due once the send timeout
// has passed, in the claim's own write, so a process that dies mid-send (or right after its
// claim) leaves a retry behind: the acknowledgement is never lost, and claims keep it from
// going twice.

/** What an acknowledgement's sends need: the ledger and the alert's clients. */
export interface AcknowledgementDeps {
  /**
   * The ledger as this process's sends claim it (`claimingLedger`), with `retryIfUnfinished`:
   * nothing plans an acknowledgement's slot again, so a claim must leave its send due should
   * it never end, or a process that stops mid-send would leave it `sending` for good.
   */
  ledger: DeliveryLedger;
  clients: AlertClients;
  logger: Logger;
  retryAt: RetryAt;
}

const MARK = ".acknowledged.";

/** The slot of one press of Acknowledge on a fire: `<fire key>.acknowledged.<press key>`. */
export function acknowledgementKey(fireKey: string, pressKey: string): string {
  return `${fireKey}${MARK}${pressKey}`;
}

/** The fire an acknowledgement's slot acknowledges, or null for another key. */
export function acknowledgedFire(key: string): string | null {
  const at = key.indexOf(MARK);
  return at > 0 ? key.slice(0, at) : null;
}

/** The key of the press an acknowledgement's slot passes on (its Acknowledgement's), or null. */
function pressOf(key: string): string | null {
  const at = key.indexOf(MARK);
  return at > 0 ? key.slice(at + MARK.length) : null;
}

/**
 * Whether a new escalation of the fire cleared the acknowledgement the slot `key` passes on:
 * then it is not sent again, as it would acknowledge the escalated fire. One not stored (the
 * press's process stopped before storing it) is not cleared: it is still passed on.
 */
export async function acknowledgementCleared(
  key: string,
  ledger: Pick<AlertHolds, "acknowledgement">,
): Promise<boolean> {
  const press = pressOf(key);
  if (press === null) return false;
  return ((await ledger.acknowledgement(press))?.clearedAt ?? null) !== null;
}

/** Why a destination not sent yet reads as failed in `history`, with its retry due. */
export const NOT_SENT_YET = "not sent yet: the acknowledgement goes again if this send never ends";

/**
 * Records the slot of an acknowledgement (team, alert, fire) with each destination owed it,
 * each a failure whose retry falls due once a send could have ended, in one write: so a
 * process that stops before the send began leaves it to the daemon's retries. False when there
 * is nothing to record (no destination takes acknowledgements) or it was recorded already.
 */
export async function recordAcknowledgement(
  ack: { key: string; team: string; alert: AlertConfig },
  deps: Pick<AcknowledgementDeps, "clients"> & {
    ledger: Pick<SlotLog, "recordSlot">;
    now(): Date;
    /** How long one send may take: the slot is due once a send begun now could have ended. */
    sendTimeoutMs: number;
  },
): Promise<boolean> {
  const fireKey = acknowledgedFire(ack.key);
  if (fireKey === null) return false;
  const ids = acknowledgementJobs(fireKey, ack.alert, deps.clients).map((job) => job.id);
  if (ids.length === 0) return false;
  const at = deps.now();
  const day = at.toISOString().slice(0, 10);
  // Never pending: nothing plans an acknowledgement's slot, so only a due retry sends it again.
  return deps.ledger.recordSlot({
    key: ack.key,
    team: ack.team,
    kind: "acknowledgement",
    job: ack.alert.name,
    fireAt: at,
    period: { start: day, end: day },
    destinations: ids,
    owedRetry: { error: NOT_SENT_YET, dueAt: new Date(at.getTime() + deps.sendTimeoutMs) },
  });
}

/**
 * The destinations the alert as configured now passes an acknowledgement of the slot `key`'s
 * fire on to; a recorded one not among them (PagerDuty removed, its routing key changed) is
 * never sent again.
 */
export function acknowledgementDestinations(
  key: string,
  alert: AlertConfig,
  clients: AlertClients,
): string[] {
  const fireKey = acknowledgedFire(key);
  if (fireKey === null) return [];
  return acknowledgementJobs(fireKey, alert, clients).map((job) => job.id);
}

/**
 * Sends the acknowledgement's slot `key` to each of `recorded` (destinations recorded with the
 * slot) that the alert still has and the ledger lets this process claim: never to one the slot
 * does not have, which would acknowledge on a service that never had the incident. Each
 * claim leaves its destination due after the send timeout (see `AcknowledgementDeps.ledger`).
 */
export async function deliverAcknowledgement(
  key: string,
  alert: AlertConfig,
  recorded: readonly string[],
  deps: AcknowledgementDeps,
): Promise<DeliveryResult[]> {
  const fireKey = acknowledgedFire(key);
  if (fireKey === null) return [];
  const jobs = acknowledgementJobs(fireKey, alert, deps.clients).filter((job) =>
    recorded.includes(job.id),
  );
  if (jobs.length === 0) return [];
  const results = await deliverAll(key, jobs, {
    ledger: deps.ledger,
    logger: deps.logger,
    retryAt: deps.retryAt,
  });
  deps.logger.info(
    {
      slot: key,
      fire: fireKey,
      deliveries: Object.fromEntries(results.map((r) => [r.id, r.status])),
    },
    "acknowledgement passed on",
  );
  return results;
}
