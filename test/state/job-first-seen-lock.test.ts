import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openLedger } from "../../src/state/sqlite/open-ledger.js";
import { Database } from "../../src/state/sqlite/sqlite.js";

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe("jobFirstSeen on SQLite", () => {
  it("answers for a job seen before while another connection holds the write lock, without waiting for it", async () => {
    const dir = await mkdtemp(join(tmpdir(), "first-seen-"));
    dirs.push(dir);
    const path = join(dir, "ledger.sqlite");
    const ledger = openLedger(path);
    const daily = { team: "checkout", kind: "digest", job: "daily" } as const;
    const first = new Date("2026-11-16T08:00:00.000Z");
    try {
      expect(await ledger.jobFirstSeen(daily, first)).toEqual(first);
      // Another process in the middle of a write (a backfill, another command).
      const writer = new Database(path);
      writer.exec("BEGIN IMMEDIATE");
      try {
        // Asking for the write lock here would wait out the ledger's busy timeout, the event
        // loop standing still, then fail with SQLITE_BUSY.
        const seen = await ledger.jobFirstSeen(daily, new Date("2026-11-20T08:00:00.000Z"));
        expect(seen).toEqual(first);
      } finally {
        writer.exec("ROLLBACK");
        writer.close();
      }
    } finally {
      await ledger.close();
    }
  });
});
