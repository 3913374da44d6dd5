import type Database from "better-sqlite3";
import {
  type AcknowledgementRow,
  type AcknowledgementStore,
  toAcknowledgement,
} from "../acknowledgements.js";

// Acknowledgements in the SQLite ledger file; the types and row mapping are the store's, in `../acknowledgements.ts`.

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
    acknowledgement: (key) => {
      const row = byKey.get(key);
      return row ? toAcknowledgement(row) : null;
    },
    clearAcknowledgements: (team, alert, fireKeys, at) =>
      db
        .transaction(() =>
          fireKeys.reduce((n, key) => n + clear.run(at.toISOString(), team, alert, key).changes, 0),
        )
        .immediate(),
  };
}
