import { afterEach, describe, expect, it } from "vitest";
import { LedgerError } from "../../../src/errors.js";
import { createLogger } from "../../../src/logger.js";
import type { Ledger } from "../../../src/state/ledger.js";
import { describeUrl } from "../../../src/state/postgres/describe-url.js";
import { openPostgresLedger } from "../../../src/state/postgres/postgres-ledger.js";
import { POSTGRES_SCHEMA_VERSION } from "../../../src/state/postgres/postgres-migrations.js";
import { createTestDatabase } from "../../postgres/create-test-database.js";

// Opening the PostgreSQL ledger: migrating once when replicas start together, and refusing
// what it cannot use with a message that names the fix.

const logger = createLogger({ level: "silent" });
const quickly = { retryForMs: 1_000, firstPauseMs: 100, maxPauseMs: 200 };
const opened: Ledger[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((l) => l.close()));
});
const open = async (url: string) => {
  const ledger = await openPostgresLedger(url, { logger, retry: quickly });
  opened.push(ledger);
  return ledger;
};

describe("the PostgreSQL ledger at open", () => {
  it("is migrated once when several replicas open it at the same moment", async () => {
    const url = await createTestDatabase();
    const ledgers = await Promise.all([open(url), open(url), open(url)]);
    expect(ledgers.every((l) => l.shared)).toBe(true);
    const { Client } = (await import("pg")).default;
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query("SELECT version FROM insights_reporter_schema");
      expect(rows).toEqual([{ version: POSTGRES_SCHEMA_VERSION }]);
    } finally {
      await client.end();
    }
  });

  it("refuses a database written by a newer version, untouched, as a LedgerError (exit 2)", async () => {
    const url = await createTestDatabase();
    await (await open(url)).close();
    const { Client } = (await import("pg")).default;
    const client = new Client({ connectionString: url });
    await client.connect();
    await client.query("UPDATE insights_reporter_schema SET version = 99");
    await client.end();

    const error = await openPostgresLedger(url, { logger, retry: quickly }).catch((e) => e);
    expect(error).toBeInstanceOf(LedgerError);
    expect(error.exitCode).toBe(2);
    expect(error.message).toContain(
      "has schema version 99, newer than this insights-reporter knows",
    );
    expect(error.message).toContain("upgrade every replica");
  });

  it("names the fix for a database that does not exist, without the password", async () => {
    const url = new URL(await createTestDatabase());
    url.pathname = "/no_such_database";
    url.password = "s3cret-pass";
    const error = await openPostgresLedger(url.toString(), { logger, retry: quickly }).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(LedgerError);
    expect(error.message).toMatch(
      /does not exist .* create it \(createdb\), or fix the database name in state\.url/,
    );
    expect(error.message).not.toContain("s3cret-pass");
  });

  it("waits for a server that is not up, then names the host and port to check", async () => {
    const error = await openPostgresLedger("postgres://reporter:pw@127.0.0.1:1/insights", {
      logger,
      retry: quickly,
    }).catch((e) => e);
    expect(error).toBeInstanceOf(LedgerError);
    expect(error.message).toContain(
      "cannot reach the ledger database postgres://reporter@127.0.0.1:1/insights",
    );
    expect(error.message).toContain("check the host and port in state.url (DATABASE_URL)");
    expect(error.message).not.toContain(":pw@");
  });

  it("describes its location without the password", () => {
    expect(describeUrl("postgres://app:hunter2@db.internal:5432/insights?sslmode=require")).toBe(
      "postgres://app@db.internal:5432/insights",
    );
  });
});
