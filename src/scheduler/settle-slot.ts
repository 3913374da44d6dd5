import type { DeliveryResult } from "../deliver/deliver-all.js";
import { worthRetrying } from "../errors.js";
import type { Logger } from "../logger.js";
import type { DaemonMetrics, DeliveryMetricResult, SlotResult } from "../ops/metrics.js";
import { type DueAt, isDue, sendingElsewhere } from "../state/delivery-due.js";
import type { Delivery, DeliveryLog, SlotLog } from "../state/ledger.js";
import { metricLabels, type ScheduledJob } from "./jobs.js";

// After a slot run: make sure no destination is left due (a run that threw half-way, or a
// destination the config dropped, would otherwise be relaunched every tick), say which
// deliveries were given up, and count the outcome, all from what the ledger now holds.

export interface SettleDeps {
  ledger: Pick<SlotLog, "getSlot"> & Pick<DeliveryLog, "markFailed">;
  metrics: DaemonMetrics | null;
  logger: Logger;
  retryAt: (attempts: number) => Date | null;
  now: Date;
  /** When the run started: what was due then and is still untouched was never attempted. */
  launched: DueAt;
}

/** Records and reports how a run of `key` ended; `error` is what the run threw, if it did. */
export async function settleSlot(
  deps: SettleDeps,
  job: ScheduledJob,
  key: string,
  results: readonly DeliveryResult[],
  error: unknown,
): Promise<void> {
  const { ledger, metrics, logger } = deps;
  const labels = metricLabels(job.team.name, job.kind, job.name);
  const reason = error === null ? null : error instanceof Error ? error.message : String(error);
  if (reason !== null) logger.error({ slot: key, err: reason }, "slot run failed");

  let slot = await ledger.getSlot(key);
  const repairs = (slot?.deliveries ?? []).flatMap((delivery) => {
    const repair = repairOf(delivery, results, reason, deps);
    return repair ? [{ delivery, ...repair }] : [];
  });
  for (const { delivery, error: lastError, next } of repairs) {
    // Fenced by the token read: a process that claimed the send meanwhile keeps its row.
    await ledger.markFailed(key, delivery.destination, lastError, next, delivery.claim);
  }
  if (repairs.length > 0) slot = await ledger.getSlot(key);

  const rows = new Map((slot?.deliveries ?? []).map((d) => [d.destination, d]));
  for (const result of results) {
    const row = rows.get(result.id);
    const outcome = metricResult(result, row);
    if (outcome === null) continue;
    metrics?.delivery(labels, result.id, outcome);
    if (outcome === "gave_up") {
      logger.error(
        { slot: key, destination: result.id, attempts: row?.attempts, err: row?.lastError },
        worthRetrying(result.error)
          ? "delivery failed for good: no retry is left before the slot's deadline"
          : "delivery failed for good: not worth retrying until the cause is fixed",
      );
    }
  }
  metrics?.slotFinished(labels, slotResult(slot?.deliveries ?? null), deps.now);
}

/**
 * What to record for a delivery the run left due, so it is never relaunched every tick: one
 * interrupted mid-run is retried on the backoff; one the run did not touch although its retry
 * was due is no longer among the digest's destinations (the config changed), so it ends — unless
 * the run threw, when it is retried like the rest.
 */
function repairOf(
  delivery: Delivery,
  results: readonly DeliveryResult[],
  runError: string | null,
  deps: Pick<SettleDeps, "retryAt" | "launched" | "now">,
): { error: string; next: Date | null } | null {
  const touched = results.some((r) => r.id === delivery.destination && r.status !== "waiting");
  // Another process (a `run`) is sending it: its row, not ours to repair.
  if (!touched && sendingElsewhere(delivery, { ...deps.launched, now: deps.now })) return null;
  if (delivery.state === "pending" || delivery.state === "sending") {
    return {
      error: runError ?? "the run ended before this destination was sent",
      next: deps.retryAt(Math.max(1, delivery.attempts)),
    };
  }
  if (touched || !isDue(delivery, deps.launched)) return null;
  if (runError !== null) return { error: runError, next: deps.retryAt(delivery.attempts + 1) };
  return {
    error: `${delivery.lastError ?? "failed"} (given up: the digest no longer delivers to ${delivery.destination})`,
    next: null,
  };
}

function metricResult(
  result: DeliveryResult,
  row: Delivery | undefined,
): DeliveryMetricResult | null {
  switch (result.status) {
    case "sent":
      return "sent";
    case "recovered":
      return "recovered";
    case "already-sent":
      return "already_sent";
    case "waiting":
      return null;
    case "failed":
      return row?.state === "failed" && row.nextAttemptAt === null ? "gave_up" : "failed";
  }
}

/** A slot's result for `slots_total`, from its deliveries as recorded (null: it was not recorded). */
export function slotResult(deliveries: readonly Delivery[] | null): SlotResult {
  if (deliveries === null) return "failed"; // the run threw before the slot was recorded
  if (deliveries.some((d) => d.state !== "sent" && d.nextAttemptAt !== null)) return "retrying";
  if (deliveries.some((d) => d.state !== "sent")) return "failed";
  return "delivered";
}
