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
