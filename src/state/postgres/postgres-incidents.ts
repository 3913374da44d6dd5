import type { Pool, PoolClient } from "pg";
import { encodeIncident, type IncidentRow, type IncidentStore, toIncident } from "../incidents.js";
import type { NewSlot } from "../ledger.js";

// Incidents in PostgreSQL, as SQLite's: the slot and the record in one transaction, resolving
// one conditional update, so replicas that reach the same incident record and resolve it once.

export function postgresIncidents(
  pool: Pool,
  transaction: <T>(work: (client: PoolClient) => Promise<T>) => Promise<T>,
  insertSlot: (db: PoolClient, slot: NewSlot) => Promise<boolean>,
): IncidentStore {
  return {
    recordIncident: (slot, record) =>
      transaction(async (client) => {
        if (!(await insertSlot(client, slot))) return false;
        await client.query(
          `INSERT INTO incidents (slot_key, fire_at, record, created_at)
           VALUES ($1, $2, $3, clock_timestamp())`,
          [slot.key, slot.fireAt, encodeIncident(record)],
        );
        return true;
      }),
    getIncident: async (key) => {
      const { rows } = await pool.query<IncidentRow>(
        "SELECT * FROM incidents WHERE slot_key = $1",
        [key],
      );
      return rows[0] ? toIncident(rows[0]) : null;
    },
    openIncidents: async () =>
      (
        await pool.query<IncidentRow>(
          "SELECT * FROM incidents WHERE resolved_by IS NULL ORDER BY fire_at, slot_key",
        )
      ).rows.map(toIncident),
    resolveIncident: (key, slot) =>
      transaction(async (client) => {
        const { rowCount } = await client.query(
          "UPDATE incidents SET resolved_by = $1 WHERE slot_key = $2 AND resolved_by IS NULL",
          [slot.key, key],
        );
        if (!rowCount) return false;
        return insertSlot(client, slot);
      }),
  };
}
