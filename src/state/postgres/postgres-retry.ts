import type { Logger } from "../../logger.js";

// A lost connection to PostgreSQL (a restart, a failover, a network cut) is waited out: each
// ledger call is tried again with a growing pause for up to `retryForMs`, said once when the
// outage begins and once when it ends. Only then does the call fail, and the daemon's tick or
// run reports it and goes on. Every ledger statement may be repeated safely: a claim that
// committed but whose answer was lost reads as another's send in flight, which the send
// timeout then hands back, and the destination's own lookup keeps it from being sent twice.

export interface RetryPolicy {
  /** How long one call keeps trying (default 60 s). */
  retryForMs: number;
  /** The first pause; each next one doubles, up to `maxPauseMs`. */
  firstPauseMs: number;
  maxPauseMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  retryForMs: 60_000,
  firstPauseMs: 250,
  maxPauseMs: 5_000,
};

// Connection-level SQLSTATEs: 08 connection exception, 57P01–03 admin shutdown, crash
// shutdown, cannot connect now (starting up or shutting down); 53300 too many connections.
const RETRIED_STATES = /^(08...|57P0[123]|53300)$/;
const RETRIED_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH"]);

/** Whether `error` means the database could not be reached, not that the statement failed. */
export function isConnectionLoss(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string" && (RETRIED_STATES.test(code) || RETRIED_CODES.has(code))) {
    return true;
  }
  const message = error instanceof Error ? error.message : "";
  return /Connection terminated|connection timeout|Client has encountered a connection error/i.test(
    message,
  );
}

/** Runs ledger calls through `retrying`, which waits out connection losses as above. */
export function createOutageRetry(
  logger: Logger,
  location: string,
  policy: RetryPolicy = DEFAULT_RETRY,
) {
  let outageSince: number | null = null;

  return async function retrying<T>(call: () => Promise<T>): Promise<T> {
    const started = Date.now();
    let pause = policy.firstPauseMs;
    for (;;) {
      try {
        const result = await call();
        if (outageSince !== null) {
          logger.info(
            { ledger: location, downMs: Date.now() - outageSince },
            "the ledger database is reachable again",
          );
          outageSince = null;
        }
        return result;
      } catch (error) {
        if (!isConnectionLoss(error) || Date.now() - started + pause > policy.retryForMs) {
          throw error;
        }
        if (outageSince === null) {
          outageSince = Date.now();
          logger.warn(
            { ledger: location, err: error instanceof Error ? error.message : String(error) },
            "the ledger database is unreachable; retrying",
          );
        }
        await new Promise((resolve) => setTimeout(resolve, pause));
        pause = Math.min(pause * 2, policy.maxPauseMs);
      }
    }
  };
}
