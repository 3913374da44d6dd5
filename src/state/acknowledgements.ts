import type Database from "better-sqlite3";
import type { Instant } from "./instant.js";

// Acknowledgements of a fire (issue 24): who said "I'm on it", and when. While one stands,
// the fire's reminders are not posted; a new escalation of the fire clears it. Each is stored
// once under the key of the action that asked for it (ADR 0007), as silences are.

/** An acknowledgement as stored. */
export interface Acknowledgement {
  id: number;
  team: string;
  alert: string;
  /** The evaluation key of the fire's first message (its thread). */
  fireKey: string;
  /** Who acknowledged: a Slack user id (`U0…`). */
  author: string;
  acknowledgedAt: Date;
  /** Set when a new escalation of the fire cleared it. */
  clearedAt: Date | null;
}

/** An acknowledgement to add; `key` names the action, and makes adding it idempotent. */
export interface NewAcknowledgement {
  key: string;
  team: string;
  alert: string;
  fireKey: string;
  author: string;
}

/** What acknowledging did: `created` false when its key was stored already (returned as stored). */
export interface AddedAcknowledgement {
  acknowledgement: Acknowledgement;
  created: boolean;
}

/** The acknowledgement store's part of the Ledger, over an open, migrated SQLite database. */
export interface AcknowledgementStore {
  acknowledge(ack: NewAcknowledgement, at: Date): AddedAcknowledgement;
  /** The acknowledgements of an alert's fires that no escalation has cleared, oldest first. */
  acknowledgements(team: string, alert: string): Acknowledgement[];
  /** Clears the standing acknowledgements of these fires; how many it cleared. */
  clearAcknowledgements(team: string, alert: string, fireKeys: readonly string[], at: Date): number;
}

export interface AcknowledgementRow {
  id: number | string;
  team: string;
  alert: string;
  fire_key: string;
  author: string;
  acknowledged_at: Instant;
  cleared_at: Instant | null;
}

export function toAcknowledgement(row: AcknowledgementRow): Acknowledgement {
  return {
    id: Number(row.id),
    team: row.team,
    alert: row.alert,
    fireKey: row.fire_key,
    author: row.author,
    acknowledgedAt: new Date(row.acknowledged_at),
    clearedAt: row.cleared_at === null ? null : new Date(row.cleared_at),
  };
}

/** Instants are stored as ISO text (`toISOString`), which sorts as time does. */
export function createAcknowledgementStore(db: Database.Database): AcknowledgementStore {
  const insert = db.prepare(
    `INSERT INTO acknowledgements (key, team, alert, fire_key, author, acknowledged_at)
     VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO NOTHING`,
  );
  const byKey = db.prepare<[string], AcknowledgementRow>(
    "SELECT * FROM acknowledgements WHERE key = ?",
  );
  const standing = db.prepare<[string, string], AcknowledgementRow>(
    `SELECT * FROM acknowledgements WHERE team = ? AND alert = ? AND cleared_at IS NULL
     ORDER BY acknowledged_at, id`,
  );
  const clear = db.prepare<[string, string, string, string]>(
    `UPDATE acknowledgements SET cleared_at = ?
     WHERE team = ? AND alert = ? AND fire_key = ? AND cleared_at IS NULL`,
  );
  return {
    acknowledge: (ack, at) =>
      db
        .transaction(() => {
          const { changes } = insert.run(
            ack.key,
            ack.team,
            ack.alert,
            ack.fireKey,
            ack.author,
            at.toISOString(),
          );
          const row = byKey.get(ack.key);
          if (!row) throw new Error(`acknowledgements has no row for ${ack.key}`);
          return { acknowledgement: toAcknowledgement(row), created: changes === 1 };
        })
        .immediate(),
    acknowledgements: (team, alert) => standing.all(team, alert).map(toAcknowledgement),
    clearAcknowledgements: (team, alert, fireKeys, at) =>
      db
        .transaction(() =>
          fireKeys.reduce((n, key) => n + clear.run(at.toISOString(), team, alert, key).changes, 0),
        )
        .immediate(),
  };
}
