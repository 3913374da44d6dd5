import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SCHEMA_VERSION } from "../../src/state/sqlite/migrations.js";
import { openLedger } from "../../src/state/sqlite/open-ledger.js";
import { Database } from "../../src/state/sqlite/sqlite.js";
import { beginAttempt } from "./begin-attempt.js";
import { aSlot, useTempLedgers } from "./ledger-builders.js";

const inspect = (path: string) => {
  const db = new Database(path, { readonly: true });
  try {
    return {
      version: db.pragma("user_version", { simple: true }),
      journal: db.pragma("journal_mode", { simple: true }),
      tables: db
        .prepare<[], { name: string }>(
          "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name",
        )
        .all()
        .map((t) => t.name),
    };
  } finally {
    db.close();
  }
};

describe("openLedger", () => {
  const ledgers = useTempLedgers();

  it("creates the file and its directories, in WAL mode, at the current schema version", async () => {
    const path = join(ledgers.dir(), "a", "b", "ledger.db");
    await ledgers.open(path).close();
    expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(1);
    expect(inspect(path)).toEqual({
      version: SCHEMA_VERSION,
      journal: "wal",
      tables: [
        "acknowledgements",
        "alert_evaluations",
        "alert_states",
        "daemon_lease",
        "day_fetch_claims",
        "deliveries",
        "delivery_parts",
        "incidents",
        "insight_days",
        "job_first_seen",
        "silences",
        "slot_runs",
        "slots",
      ],
    });
  });

  it("re-opens an existing file without migrating again, keeping its data", async () => {
    const path = join(ledgers.dir(), "ledger.db");
    const first = ledgers.open(path);
    await first.recordSlot(aSlot());
    await first.close();
    const second = ledgers.open(path);
    expect(inspect(path).version).toBe(SCHEMA_VERSION);
    expect((await second.getSlot("checkout.daily.2026-11-15"))?.deliveries).toHaveLength(2);
  });

  it("reports the resolved path as its location", () => {
    const path = join(ledgers.dir(), "ledger.db");
    expect(ledgers.open(path).location).toBe(path);
  });

  it("refuses a file from a newer version, saying what to do", () => {
    const path = join(ledgers.dir(), "ledger.db");
    const db = new Database(path);
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    expect(() => openLedger(path)).toThrow(
      `the ledger ${path} has schema version ${SCHEMA_VERSION + 1}, newer than this insights-reporter knows (${SCHEMA_VERSION}) — upgrade insights-reporter, or point state.path elsewhere`,
    );
  });

  it("says which path it cannot open and what to check", () => {
    const path = join(ledgers.dir(), "is-a-dir");
    mkdirSync(path);
    expect(() => openLedger(path)).toThrow(
      `the ledger ${path} is a directory — point state.path at a file, e.g. ${join(path, "reporter.sqlite")}`,
    );
  });

  it("refuses a file that is not a database, naming it", () => {
    const path = join(ledgers.dir(), "notes.txt");
    writeFileSync(path, "these are not the rows you are looking for ".repeat(200));
    expect(() => openLedger(path)).toThrow(path);
  });

  it("lets a second connection read and write beside the first", async () => {
    const path = join(ledgers.dir(), "ledger.db");
    const daemon = ledgers.open(path);
    const cli = ledgers.open(path);
    await daemon.recordSlot(aSlot());
    expect((await cli.getSlot("checkout.daily.2026-11-15"))?.key).toBe("checkout.daily.2026-11-15");
    await beginAttempt(cli, "checkout.daily.2026-11-15", "slack:C0123");
    await cli.markSent("checkout.daily.2026-11-15", "slack:C0123", {
      ref: "1700000000.000100",
    });
    const seen = (await daemon.getSlot("checkout.daily.2026-11-15"))?.deliveries.find(
      (d) => d.destination === "slack:C0123",
    );
    expect(seen).toMatchObject({ state: "sent", ref: "1700000000.000100", attempts: 1 });
  });
});

describe("the ledger file under an open ledger", () => {
  const ledgers = useTempLedgers();

  it("is noticed when deleted or replaced, naming the fix", () => {
    const path = join(ledgers.dir(), "ledger.db");
    const ledger = ledgers.open(path);
    expect(ledger.fileProblem()).toBeNull();
    rmSync(path);
    expect(ledger.fileProblem()).toMatch(/was deleted while the daemon had it open.* — restore/);
    writeFileSync(`${path}.new`, "");
    renameSync(`${path}.new`, path);
    expect(ledger.fileProblem()).toMatch(/was replaced by another file.* — restart the daemon/);
  });
});
