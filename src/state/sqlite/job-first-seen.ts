import type Database from "better-sqlite3";
import type { SlotLog, Sync } from "../ledger.js";

// When the SQLite ledger first saw each job (see `Ledger.jobFirstSeen`): one row per job,
// written once, by the first process to ask.

interface FirstSeenRow {
  first_seen_at: string;
}

/** `jobFirstSeen` over an open, migrated database. */
export function createJobFirstSeenStore(
  db: Database.Database,
): Pick<Sync<SlotLog>, "jobFirstSeen"> {
  const insert = db.prepare<[string, string, string, string]>(
    `INSERT INTO job_first_seen (team, kind, job, first_seen_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (team, kind, job) DO NOTHING`,
  );
  const select = db.prepare<[string, string, string], FirstSeenRow>(
    "SELECT first_seen_at FROM job_first_seen WHERE team = ? AND kind = ? AND job = ?",
  );
  return {
    jobFirstSeen: ({ team, kind, job }, at) =>
      db
        .transaction(() => {
          insert.run(team, kind, job, at.toISOString());
          const row = select.get(team, kind, job);
          if (!row) throw new Error(`job_first_seen has no row for ${team}/${kind}/${job}`);
          return new Date(row.first_seen_at);
        })
        .immediate(),
  };
}
