import type { Logger } from "../logger.js";

// A failure the scheduler meets every tick (a job it cannot plan, a ledger file gone) is logged
// when it starts, not every tick; once it has recovered, the same failure coming back is news
// again. A process that logged it once and never again hid the second outage.

export interface FailureLog {
  /** Logs the failure of `id`, unless the same one is already logged and has not recovered. */
  failed(id: string, error: unknown, message: string): void;
  /** `id` works again: its next failure is logged. */
  recovered(id: string): void;
}

/** The scheduler's failure log, over `logger`. */
export function createFailureLog(logger: Logger): FailureLog {
  // Per id, the failure logged and not recovered from.
  const current = new Map<string, string>();
  return {
    failed(id, error, message) {
      const err = error instanceof Error ? error.message : String(error);
      if (current.get(id) === err) return;
      current.set(id, err);
      logger.error({ job: id, err }, message);
    },
    recovered(id) {
      current.delete(id);
    },
  };
}
