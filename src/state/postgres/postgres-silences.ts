import type { Pool, QueryResultRow } from "pg";
import type { AlertHolds } from "../ledger.js";
import { type SilenceRow, toSilence } from "../silences.js";

// Silences in PostgreSQL, as SQLite's (`silences.ts`): adding is one conditional insert on the
// action's key, ending one conditional update, so replicas racing on one press agree.

/** The silences half of AlertHolds (acknowledgements are `postgres-acknowledgements.ts`). */
type SilenceStatements = Pick<AlertHolds, "addSilence" | "silences" | "endSilence">;

export function postgresSilences(pool: Pool): SilenceStatements {
  const rows = async <R extends QueryResultRow>(sql: string, params: unknown[]) =>
    (await pool.query<R>(sql, params)).rows;
  return {
    addSilence: async (silence, at) => {
      const [inserted] = await rows<SilenceRow>(
        `INSERT INTO silences (key, team, alert, scope, author, starts_at, ends_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (key) DO NOTHING RETURNING *`,
        [
          silence.key,
          silence.team,
          silence.alert,
          silence.scope,
          silence.author,
          silence.startsAt,
          silence.endsAt,
          at,
        ],
      );
      if (inserted) return { silence: toSilence(inserted), created: true };
      // Stored before (or by another replica just now): a statement of its own, so that it
      // sees a row committed while the INSERT waited on it.
      const [row] = await rows<SilenceRow>("SELECT * FROM silences WHERE key = $1", [silence.key]);
      if (!row) throw new Error(`silences has no row for ${silence.key}`);
      return { silence: toSilence(row), created: false };
    },
    silences: async ({ team, activeAt }) =>
      (
        await rows<SilenceRow>(
          `SELECT * FROM silences
           WHERE ($1::text IS NULL OR team = $1)
             AND ($2::timestamptz IS NULL OR (ended_at IS NULL AND starts_at <= $2 AND ends_at > $2))
           ORDER BY starts_at, id`,
          [team ?? null, activeAt ?? null],
        )
      ).map(toSilence),
    endSilence: async (id, by, at) => {
      const [ended] = await rows<SilenceRow>(
        `UPDATE silences SET ended_at = $1, ended_by = $2
         WHERE id = $3 AND ended_at IS NULL AND ends_at > $1 RETURNING *`,
        [at, by, id],
      );
      if (ended) return { outcome: "ended", silence: toSilence(ended) };
      const [row] = await rows<SilenceRow>("SELECT * FROM silences WHERE id = $1", [id]);
      return row ? { outcome: "already_over", silence: toSilence(row) } : { outcome: "not_found" };
    },
  };
}
