import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createJobFirstSeenStore } from "../../src/state/sqlite/job-first-seen.js";
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

describe("jobFirstSeen on SQLite, when its read misses a row another process has just written", () => {
  it("answers with that process's date, not its own", async () => {
    const dir = await mkdtemp(join(tmpdir(), "first-seen-"));
    dirs.push(dir);
    const path = join(dir, "ledger.sqlite");
    await openLedger(path).close();
    const db = new Database(path);
    try {
      // The other process's sighting, committed between this one's read and its write: here
      // the read is made to miss it.
      db.prepare(
        "INSERT INTO job_first_seen (team, kind, job, first_seen_at) VALUES (?, ?, ?, ?)",
      ).run("checkout", "digest", "daily", "2026-11-16T08:00:00.000Z");
      let reads = 0;
      const readMissingOnce = new Proxy(db, {
        get(target, key) {
          if (key !== "prepare") return Reflect.get(target, key, target);
          return (sql: string) => {
            const statement = target.prepare(sql);
            if (!sql.startsWith("SELECT")) return statement;
            return new Proxy(statement, {
              get(inner, name) {
                if (name !== "get") return Reflect.get(inner, name, inner);
                return (...args: unknown[]) =>
                  reads++ === 0 ? undefined : inner.get(...(args as [string, string, string]));
              },
            });
          };
        },
      });
      const store = createJobFirstSeenStore(readMissingOnce);
      const seen = store.jobFirstSeen(
        { team: "checkout", kind: "digest", job: "daily" },
        new Date("2026-11-20T08:00:00.000Z"),
      );
      // The read that missed, then the one after the write found nothing to write.
      expect(reads).toBe(2);
      expect(seen).toEqual(new Date("2026-11-16T08:00:00.000Z"));
    } finally {
      db.close();
    }
  });
});
