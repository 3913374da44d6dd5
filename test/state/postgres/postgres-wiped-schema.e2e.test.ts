import { Writable } from "node:stream";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../../../src/logger.js";
import type { Ledger } from "../../../src/state/ledger.js";
import { openPostgresLedger } from "../../../src/state/postgres/postgres-ledger.js";
import { createTestDatabase } from "../../postgres/create-test-database.js";

// The ledger's schema wiped from under running replicas (DROP SCHEMA, DROP TABLE): readiness
// says the ledger cannot be written, and the next write creates the tables again (or says in
// one line what to do), instead of every tick failing on `relation "deliveries" does not exist`.

const quickly = { retryForMs: 1_000, firstPauseMs: 100, maxPauseMs: 200 };
const opened: Ledger[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((l) => l.close()));
});

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString().split("\n")) if (line) lines.push(JSON.parse(line));
      callback();
    },
  });
  return { lines, logger: createLogger({ destination: sink, pretty: false, level: "info" }) };
}

async function sql(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

const SLOT = {
  key: "checkout.daily.2026-06-09",
  team: "checkout",
  kind: "digest" as const,
  job: "daily",
  fireAt: new Date("2026-06-10T07:00:00Z"),
  period: { start: "2026-06-09", end: "2026-06-09" },
  destinations: ["slack:C0123ABCD"],
};

describe("the PostgreSQL ledger whose schema is wiped while it runs", () => {
  it("is not ready, then is created again by the next write, and is ready again", async () => {
    const url = await createTestDatabase();
    const { lines, logger } = capture();
    const ledger = await openPostgresLedger(url, { logger, retry: quickly });
    opened.push(ledger);
    expect(await ledger.reachable()).toBeNull();

    await sql(url, "DROP SCHEMA public CASCADE; CREATE SCHEMA public");
    expect(await ledger.reachable()).toMatch(/cannot write to the ledger database .*deliveries/);

    expect(await ledger.recordSlot(SLOT)).toBe(true);
    expect((await ledger.getSlot(SLOT.key))?.deliveries).toHaveLength(1);
    expect(await ledger.reachable()).toBeNull();
    const recreated = lines.filter((l) => String(l.msg).includes("created again"));
    expect(recreated).toHaveLength(1);
  });

  it("names the fix in one line when a table is gone but the schema version says it is there", async () => {
    const url = await createTestDatabase();
    const ledger = await openPostgresLedger(url, { logger: capture().logger, retry: quickly });
    opened.push(ledger);
    await sql(url, "DROP TABLE deliveries");
    expect(await ledger.reachable()).toMatch(/cannot write to the ledger database/);
    const error = await ledger.recordSlot(SLOT).catch((e: Error) => e);
    expect(String(error)).toMatch(/relation "deliveries" does not exist/);
    expect(String(error)).toMatch(/DROP SCHEMA public CASCADE/);
    expect(String(error).split("\n")).toHaveLength(1);
  });
});
