import type { Pool, QueryResultRow } from "pg";
import { type AcknowledgementRow, toAcknowledgement } from "../acknowledgements.js";
import type { AlertHolds } from "../ledger.js";

// Acknowledgements in PostgreSQL, as SQLite's (`acknowledgements.ts`): adding is one
// conditional insert on the action's key, so replicas racing on one press agree.

/** The acknowledgements half of AlertHolds (silences are `postgres-silences.ts`). */
type AcknowledgementStatements = Pick<
  AlertHolds,
  "acknowledge" | "acknowledgements" | "acknowledgement" | "clearAcknowledgements"
>;

export function postgresAcknowledgements(pool: Pool): AcknowledgementStatements {
  const rows = async <R extends QueryResultRow>(sql: string, params: unknown[]) =>
    (await pool.query<R>(sql, params)).rows;
  return {
    acknowledge: async (ack, at) => {
      const [inserted] = await rows<AcknowledgementRow>(
        `INSERT INTO acknowledgements (key, team, alert, fire_key, author, acknowledged_at)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (key) DO NOTHING RETURNING *`,
        [ack.key, ack.team, ack.alert, ack.fireKey, ack.author, at],
      );
      if (inserted) return { acknowledgement: toAcknowledgement(inserted), created: true };
      // Stored before (or by another replica just now): a statement of its own sees its row.
      const [row] = await rows<AcknowledgementRow>(
        "SELECT * FROM acknowledgements WHERE key = $1",
        [ack.key],
      );
      if (!row) throw new Error(`acknowledgements has no row for ${ack.key}`);
      return { acknowledgement: toAcknowledgement(row), created: false };
    },
    acknowledgements: async (team, alert) =>
      (
        await rows<AcknowledgementRow>(
          `SELECT * FROM acknowledgements WHERE team = $1 AND alert = $2 AND cleared_at IS NULL
           ORDER BY acknowledged_at, id`,
          [team, alert],
        )
      ).map(toAcknowledgement),
    acknowledgement: async (key) => {
      const [row] = await rows<AcknowledgementRow>(
        "SELECT * FROM acknowledgements WHERE key = $1",
        [key],
      );
      return row ? toAcknowledgement(row) : null;
    },
    clearAcknowledgements: async (team, alert, fireKeys, at) =>
      (
        await pool.query(
          `UPDATE acknowledgements SET cleared_at = $1
           WHERE team = $2 AND alert = $3 AND fire_key = ANY($4::text[]) AND cleared_at IS NULL`,
          [at, team, alert, [...fireKeys]],
        )
      ).rowCount ?? 0,
  };
}
