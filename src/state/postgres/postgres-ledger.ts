import type pg from "pg";
import { LedgerError } from "../../errors.js";
import type { Logger } from "../../logger.js";
import type { Ledger } from "../ledger.js";
import { describeUrl } from "./describe-url.js";
import { migratePostgres } from "./postgres-migrations.js";
import { createPostgresPool } from "./postgres-pool.js";
import {
  createOutageRetry,
  DEFAULT_RETRY,
  isConnectionLoss,
  type RetryPolicy,
} from "./postgres-retry.js";
import { postgresStatements } from "./postgres-statements.js";
import { postgresTlsProblem } from "./postgres-tls-problem.js";

// The PostgreSQL ledger, for several replicas: one database they all share. It has no daemon
// lease (any replica may run; claims decide who sends what), its claims are judged by the
// database's clock, and a lost connection is waited out (`postgres-retry.ts`).

export interface PostgresLedgerOptions {
  logger: Logger;
  /** How long calls wait out a lost connection, and how long opening waits for the server. */
  retry?: RetryPolicy;
  /** Connections per process (default 4: a tick, a few runs and /readyz at once). */
  poolSize?: number;
}

// A statement that runs longer than this is stuck (a lock held by a hung client, say).
const STATEMENT_TIMEOUT_MS = 30_000;

/**
 * Connects to the database at `url`, waiting for it up to the retry policy's time if it is not
 * up yet (replicas often start with it), and migrates it. Refused credentials, a missing
 * database or a newer schema are LedgerErrors (exit 2) at once, naming the fix.
 */
export async function openPostgresLedger(
  url: string,
  options: PostgresLedgerOptions,
): Promise<Ledger> {
  const location = describeUrl(url);
  const retrying = createOutageRetry(options.logger, location, options.retry ?? DEFAULT_RETRY);
  const pool = createPostgresPool(url, options.logger, {
    purpose: "ledger",
    location,
    max: options.poolSize ?? 4,
    statementTimeoutMs: STATEMENT_TIMEOUT_MS,
  });
  try {
    await retrying(() => withClient(pool, (client) => migratePostgres(client, location)));
  } catch (error) {
    await pool.end().catch(() => {});
    throw postgresProblem(location, url, error) ?? error;
  }

  const transaction = <T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> =>
    withClient(pool, async (client) => {
      await client.query("BEGIN");
      try {
        const result = await work(client);
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        throw error;
      }
    });
  const statements = postgresStatements(pool, transaction);
  const guarded = Object.fromEntries(
    Object.entries(statements).map(([name, call]) => [
      name,
      (...args: unknown[]) =>
        retrying(() => (call as (...a: unknown[]) => Promise<unknown>)(...args)),
    ]),
  ) as typeof statements;

  let closed = false;
  return {
    location,
    shared: true,
    fileProblem: () => null,
    reachable: async () => {
      try {
        await pool.query("SELECT 1");
        return null;
      } catch (error) {
        return `cannot reach the ledger database ${location}: ${error instanceof Error ? error.message : String(error)}`;
      }
    },
    ...guarded,
    acquireDaemonLease: async () => {},
    renewLease: async () => {},
    releaseLease: async () => {},
    close: async () => {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}

/**
 * Runs `work` on a connection of its own. A connection the server drops while it is checked
 * out reports it as an error event (which would end the process unheard): that ends the work
 * with the error instead, and the connection is thrown away, not returned to the pool.
 */
async function withClient<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  let lost: Error | null = null;
  const onError = (error: Error) => {
    lost = error;
  };
  client.on("error", onError);
  try {
    return await work(client);
  } catch (error) {
    if (isConnectionLoss(error)) lost ??= error as Error;
    throw error;
  } finally {
    client.off("error", onError);
    client.release(lost ?? undefined);
  }
}

/** A LedgerError naming the fix for what stops the ledger from opening, or null. */
function postgresProblem(location: string, url: string, error: unknown): LedgerError | null {
  if (error instanceof LedgerError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const reason = error instanceof Error ? error.message : String(error);
  const context = { ledger: location, code: typeof code === "string" ? code : null };
  const problem = (message: string) => new LedgerError(message, context, { cause: error });
  const tls = postgresTlsProblem(location, url, error);
  if (tls) return problem(tls);
  if (code === "28P01" || code === "28000") {
    return problem(
      `the ledger database ${location} refused the credentials (${reason}) — check the user and password in state.url (DATABASE_URL)`,
    );
  }
  if (code === "3D000") {
    return problem(
      `the ledger database ${location} does not exist (${reason}) — create it (createdb), or fix the database name in state.url`,
    );
  }
  if (code === "42P07" || code === "42501") {
    return problem(
      `cannot create the ledger's tables in ${location} (${reason}) — give insights-reporter a database of its own, and a user that may create tables in it`,
    );
  }
  if (isConnectionLoss(error) || code === "ENOTFOUND") {
    return problem(
      `cannot reach the ledger database ${location} (${reason}) — check the host and port in state.url (DATABASE_URL), and that PostgreSQL is running`,
    );
  }
  return null;
}
