import type Database from "better-sqlite3";
import type { Instant } from "./instant.js";

// Silences (issue 24): while one holds, an alert scope's transitions are recorded but not
// posted. Each is stored once under the key of the action that asked for it (ADR 0007), so a
// redelivered envelope, a second press or a second replica adds nothing.

/** A silence as stored. */
export interface Silence {
  /** Small and stable: what `alerts --unsilence ID` names. */
  id: number;
  team: string;
  alert: string;
  /** The alert's scope it silences: a project id, or `team`. */
  scope: string;
  /** Who asked: a Slack user id (`U0…`) or `cli:<name>`. */
  author: string;
  startsAt: Date;
  endsAt: Date;
  createdAt: Date;
  /** Set when it was ended before `endsAt`, by `endedBy`. */
  endedAt: Date | null;
  endedBy: string | null;
}

/** A silence to add; `key` names the action that asked for it, and makes adding it idempotent. */
export interface NewSilence
  extends Pick<Silence, "team" | "alert" | "scope" | "author" | "startsAt" | "endsAt"> {
  key: string;
}

/** What adding a silence did: `created` false when its key was stored already (returned as stored). */
export interface AddedSilence {
  silence: Silence;
  created: boolean;
}

/** What ending a silence did. */
export type EndedSilence =
  | { outcome: "ended"; silence: Silence }
  | { outcome: "already_over"; silence: Silence }
  | { outcome: "not_found" };

/** Which silences to list: a team's, and only those in force at `activeAt` when given. */
export interface SilenceQuery {
  team?: string;
  activeAt?: Date;
}

/** The silence store's part of the Ledger, over an open, migrated SQLite database. */
export interface SilenceStore {
  addSilence(silence: NewSilence, at: Date): AddedSilence;
  silences(query: SilenceQuery): Silence[];
  endSilence(id: number, by: string, at: Date): EndedSilence;
}

export interface SilenceRow {
  id: number | string;
  team: string;
  alert: string;
  scope: string;
  author: string;
  starts_at: Instant;
  ends_at: Instant;
  created_at: Instant;
  ended_at: Instant | null;
  ended_by: string | null;
}

export function toSilence(row: SilenceRow): Silence {
  return {
    id: Number(row.id),
    team: row.team,
    alert: row.alert,
    scope: row.scope,
    author: row.author,
    startsAt: new Date(row.starts_at),
    endsAt: new Date(row.ends_at),
    createdAt: new Date(row.created_at),
    endedAt: row.ended_at === null ? null : new Date(row.ended_at),
    endedBy: row.ended_by,
  };
}

/** Instants are stored as ISO text (`toISOString`), which sorts as time does. */
export function createSilenceStore(db: Database.Database): SilenceStore {
  const insert = db.prepare(
    `INSERT INTO silences (key, team, alert, scope, author, starts_at, ends_at, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO NOTHING`,
  );
  const byKey = db.prepare<[string], SilenceRow>("SELECT * FROM silences WHERE key = ?");
  const byId = db.prepare<[number], SilenceRow>("SELECT * FROM silences WHERE id = ?");
  const list = db.prepare<{ team: string | null; at: string | null }, SilenceRow>(
    `SELECT * FROM silences
     WHERE (@team IS NULL OR team = @team)
       AND (@at IS NULL OR (ended_at IS NULL AND starts_at <= @at AND ends_at > @at))
     ORDER BY starts_at, id`,
  );
  const end = db.prepare<[string, string, number, string]>(
    "UPDATE silences SET ended_at = ?, ended_by = ? WHERE id = ? AND ended_at IS NULL AND ends_at > ?",
  );
  return {
    addSilence: (silence, at) =>
      db
        .transaction(() => {
          const { changes } = insert.run(
            silence.key,
            silence.team,
            silence.alert,
            silence.scope,
            silence.author,
            silence.startsAt.toISOString(),
            silence.endsAt.toISOString(),
            at.toISOString(),
          );
          const row = byKey.get(silence.key);
          if (!row) throw new Error(`silences has no row for ${silence.key}`);
          return { silence: toSilence(row), created: changes === 1 };
        })
        .immediate(),
    silences: ({ team, activeAt }) =>
      list.all({ team: team ?? null, at: activeAt?.toISOString() ?? null }).map(toSilence),
    endSilence: (id, by, at) =>
      db
        .transaction((): EndedSilence => {
          const iso = at.toISOString();
          const { changes } = end.run(iso, by, id, iso);
          const row = byId.get(id);
          if (!row) return { outcome: "not_found" };
          return { outcome: changes === 1 ? "ended" : "already_over", silence: toSilence(row) };
        })
        .immediate(),
  };
}
