import type Database from "better-sqlite3";
import { type EndedSilence, type SilenceRow, type SilenceStore, toSilence } from "../silences.js";

// Silences in the SQLite ledger file; the types and row mapping are the store's, in `../silences.ts`.

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
