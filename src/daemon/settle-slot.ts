import type { DeliveryResult } from "../deliver/deliver-all.js";
import type { Logger } from "../logger.js";
import type { Delivery, Ledger } from "../state/ledger.js";
import type { ScheduledJob } from "./jobs.js";
import type { DaemonMetrics, DeliveryMetricResult, SlotResult } from "./metrics.js";

/**
 * After a slot run: make sure no destination is left open without a retry (a run that threw
 * half-way would otherwise strand it until a restart), say which deliveries were given up, and
 * count the outcome, all from what the ledger now holds.
 */

export interface SettleDeps {
  ledger: Pick<Ledger, "getSlot" | "markFailed">;
  metrics: DaemonMetrics | null;
  logger: Logger;
  retryAt: (attempts: number) => Date | null;
  now: Date;
}

/** Records and reports how a run of `key` ended; `error` is what the run threw, if it did. */
export function settleSlot(
  deps: SettleDeps,
  job: ScheduledJob,
  key: string,
  results: readonly DeliveryResult[],
  error: unknown,
): void {
  const { ledger, metrics, logger } = deps;
  const labels = { team: job.team.name, job: job.name };
  const reason = error === null ? null : error instanceof Error ? error.message : String(error);
  if (reason !== null) logger.error({ slot: key, err: reason }, "slot run failed");

  let slot = ledger.getSlot(key);
  const stranded = slot?.deliveries.filter((d) => d.state === "pending" || d.state === "sending");
  for (const delivery of stranded ?? []) {
    const next = deps.retryAt(Math.max(1, delivery.attempts));
    ledger.markFailed(
      key,
      delivery.destination,
      reason ?? "the run ended before this destination was sent",
      next,
    );
  }
  if (stranded?.length) slot = ledger.getSlot(key);

  const rows = new Map((slot?.deliveries ?? []).map((d) => [d.destination, d]));
  for (const result of results) {
    const row = rows.get(result.id);
    const outcome = metricResult(result, row);
    if (outcome === null) continue;
    metrics?.delivery(labels, result.id, outcome);
    if (outcome === "gave_up") {
      logger.error(
        { slot: key, destination: result.id, attempts: row?.attempts, err: row?.lastError },
        "delivery failed for good: no retry is left before the slot's deadline",
      );
    }
  }
  metrics?.slotFinished(labels, slotResult(slot?.deliveries ?? null), deps.now);
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
      // A destination waiting for its own retry reads as sent to the run, but was not touched.
      return row?.state === "sent" ? "already_sent" : null;
    case "failed":
      return row?.state === "failed" && row.nextAttemptAt === null ? "gave_up" : "failed";
  }
}

function slotResult(deliveries: readonly Delivery[] | null): SlotResult {
  if (deliveries === null) return "failed"; // the run threw before the slot was recorded
  if (deliveries.some((d) => d.state !== "sent" && d.nextAttemptAt !== null)) return "retrying";
  if (deliveries.some((d) => d.state !== "sent")) return "failed";
  return "delivered";
}
