import pg from "pg";
import type { Logger } from "../../logger.js";
import { driverUrl } from "./driver-url.js";

// Every connection of our pools is heard for its whole life. pg-pool takes its own error
// listener off a connection when it hands it out, and the borrower's comes on a moment later;
// a server shutdown message read in the same chunk as the answer that freed the connection
// arrives in between, as an 'error' event with no listener, which ends the process. (Two
// replicas died that way when PostgreSQL stopped under load.) The query in flight still fails
// and is retried by the caller; this listener only keeps the event from going unheard.

export interface PoolOptions {
  /** What the pool is for, in its log lines ("ledger", "day store"). */
  purpose: string;
  /** The URL without its password, for log lines. */
  location: string;
  max: number;
  statementTimeoutMs?: number;
}

/** A pool to `url` whose connections' errors are logged, never unheard. */
export function createPostgresPool(url: string, logger: Logger, options: PoolOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: driverUrl(url),
    max: options.max,
    connectionTimeoutMillis: 5_000,
    application_name: "insights-reporter",
    ...(options.statementTimeoutMs
      ? {
          statement_timeout: options.statementTimeoutMs,
          query_timeout: options.statementTimeoutMs + 5_000,
        }
      : {}),
  });
  const lost = (error: Error) =>
    logger.warn(
      { ledger: options.location, err: error.message },
      `a ${options.purpose} connection was lost`,
    );
  // A connection's first error says it is lost (the server's reason; pg then reports the
  // closed socket too). The pool's error event, for an idle connection it then drops, repeats
  // it and needs a listener only so as not to end the process.
  pool.on("connect", (client) => {
    client.once("error", lost);
    client.on("error", () => {});
  });
  pool.on("error", () => {});
  return pool;
}
