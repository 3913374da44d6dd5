import type pg from "pg";
import { LedgerError } from "../../errors.js";
import type { Logger } from "../../logger.js";
import type { Ledger } from "../ledger.js";
import { describeUrl } from "./describe-url.js";
import { inTransaction } from "./in-transaction.js";
import { LEDGER_TABLES, migratePostgres, POSTGRES_SCHEMA_VERSION } from "./postgres-migrations.js";
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
    withClient(pool, (client) => inTransaction(client, work));
  const statements = postgresStatements(pool, transaction);
  const migrateAgain = tablesCreatedAgain(options.logger, location, () =>
    retrying(() => withClient(pool, (client) => migratePostgres(client, location))),
  );
  const guarded = Object.fromEntries(
    Object.entries(statements).map(([name, call]) => [
      name,
      async (...args: unknown[]) => {
        const run = () => retrying(() => (call as (...a: unknown[]) => Promise<unknown>)(...args));
        try {
          return await run();
        } catch (error) {
          if (!isMissingTable(error)) throw error;
          await migrateAgain(error);
          return run();
        }
      },
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
      } catch (error) {
        return `cannot reach the ledger database ${location}: ${messageOf(error)}`;
      }
      return writeProblem(pool, location);
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

const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

/** PostgreSQL's undefined_table: `relation "deliveries" does not exist`. */
const isMissingTable = (error: unknown): boolean =>
  (error as { code?: unknown } | null)?.code === "42P01";

/**
 * Whether the ledger can be written, beyond the server answering: every table there (a schema
 * dropped under running replicas leaves a server that answers and a ledger that does not), and
 * a write allowed (not a read-only server or user). Null, or what is wrong in words.
 */
async function writeProblem(pool: pg.Pool, location: string): Promise<string | null> {
  try {
    const { rows } = await pool.query<{ name: string }>(
      "SELECT name FROM unnest($1::text[]) AS name WHERE to_regclass(name) IS NULL",
      [LEDGER_TABLES],
    );
    if (rows.length > 0) {
      const missing = rows.map((r) => r.name).join(", ");
      return `cannot write to the ledger database ${location}: its tables ${missing} are missing (the next write creates them again)`;
    }
    // Plans and checks a write, changing nothing: a read-only server or user fails it.
    await pool.query("UPDATE deliveries SET claim = claim WHERE false");
    return null;
  } catch (error) {
    return `cannot write to the ledger database ${location}: ${messageOf(error)}`;
  }
}

/**
 * Re-creates the ledger's tables once a call finds one missing (its schema dropped while the
 * replicas ran), one migration at a time however many calls find it; says so in one line. A
 * table missing while the schema's version says it is there cannot be re-created by migrating:
 * that is a LedgerError naming the fix.
 */
function tablesCreatedAgain(
  logger: Logger,
  location: string,
  migrate: () => Promise<number>,
): (cause: unknown) => Promise<void> {
  let running: Promise<void> | null = null;
  const once = async (cause: unknown) => {
    const found = await migrate();
    if (found === 0) {
      logger.warn(
        { ledger: location, cause: messageOf(cause) },
        "the ledger's tables were gone (the schema was dropped while the daemon ran); created again, empty",
      );
      return;
    }
    if (found === POSTGRES_SCHEMA_VERSION) {
      throw new LedgerError(
        `the ledger database ${location} lost a table (${messageOf(cause)}) while its schema version says it is there — restore the database from a backup, or empty it (DROP SCHEMA public CASCADE; CREATE SCHEMA public) so the next write creates every table again`,
        { ledger: location, version: found },
        { cause },
      );
    }
  };
  return (cause) => {
    running ??= once(cause).finally(() => {
      running = null;
    });
    return running;
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
