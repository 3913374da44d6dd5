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
  const firstSighting = db.transaction((team: string, kind: string, job: string, at: Date) => {
    insert.run(team, kind, job, at.toISOString());
    const row = select.get(team, kind, job);
    if (!row) throw new Error(`job_first_seen has no row for ${team}/${kind}/${job}`);
    return new Date(row.first_seen_at);
  });
  return {
    jobFirstSeen: ({ team, kind, job }, at) => {
      // Seen before, as on every run but a job's first: read without the write lock, so that a
      // slot run never waits on another connection's commit (the wait stalls the event loop).
      const seen = select.get(team, kind, job);
      if (seen) return new Date(seen.first_seen_at);
      return firstSighting.immediate(team, kind, job, at);
    },
  };
}
