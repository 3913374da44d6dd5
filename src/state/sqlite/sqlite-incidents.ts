import type Database from "better-sqlite3";
import { encodeIncident, type IncidentRow, type IncidentStore, toIncident } from "../incidents.js";
import type { SlotLog, Sync } from "../ledger.js";

// Incidents in the SQLite ledger file; the types and JSON are the store's, in `../incidents.ts`.

export function createIncidentStore(
  db: Database.Database,
  now: () => Date,
  recordSlot: Sync<SlotLog>["recordSlot"],
): Sync<IncidentStore> {
  const insert = db.prepare(
    "INSERT INTO incidents (slot_key, fire_at, record, created_at) VALUES (?, ?, ?, ?)",
  );
  const byKey = db.prepare<[string], IncidentRow>("SELECT * FROM incidents WHERE slot_key = ?");
  const open = db.prepare<[], IncidentRow>(
    "SELECT * FROM incidents WHERE resolved_by IS NULL ORDER BY fire_at, slot_key",
  );
  const resolve = db.prepare<[string, string]>(
    "UPDATE incidents SET resolved_by = ? WHERE slot_key = ? AND resolved_by IS NULL",
  );
  return {
    recordIncident: (slot, record) =>
      db
        .transaction(() => {
          if (!recordSlot(slot)) return false;
          insert.run(
            slot.key,
            slot.fireAt.toISOString(),
            encodeIncident(record),
            now().toISOString(),
          );
          return true;
        })
        .immediate(),
    getIncident: (key) => {
      const row = byKey.get(key);
      return row ? toIncident(row) : null;
    },
    openIncidents: () => open.all().map(toIncident),
    resolveIncident: (key, slot) =>
      db
        .transaction(() => {
          if (resolve.run(slot.key, key).changes === 0) return false;
          return recordSlot(slot);
        })
        .immediate(),
  };
}
