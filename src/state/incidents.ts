import * as z from "zod";
import type { NewSlot } from "./new-slot.js";

// Incidents in the ledger (issue 38 item 3): many projects that fired in one tick, recorded
// with their own slot (kind "incident") in one transaction, so replicas that form the same
// incident record it once and deliver it through the slot's claims like any other. The record
// is JSON, a wire format between versions: written with a version, read back through a schema.

/** One member as recorded: the fire, and the channel its own alert posted in. */
export interface IncidentMemberRecord {
  team: string;
  alert: string;
  metric: string;
  scope: string;
  name: string;
  value: number | null;
  /** The alert evaluation whose message announced the fire. */
  fireKey: string;
  /** The Slack channel of the member's own alert message; null when it has none. */
  channel: string | null;
}

/** What an incident is: its words, its members and where it is posted. */
export interface IncidentRecord {
  summary: string;
  members: IncidentMemberRecord[];
  /** The incident's Slack channel; null when it posts to no Slack channel. */
  channel: string | null;
}

export interface StoredIncident {
  key: string;
  fireAt: Date;
  record: IncidentRecord;
  /** The key of the slot that resolved it; null while any member still fires. */
  resolvedBy: string | null;
}

/** The incident's ledger calls (both stores implement them). */
export interface IncidentStore {
  /** Records the incident's slot and record in one transaction; false, changing nothing, when the slot exists. */
  recordIncident(slot: NewSlot, record: IncidentRecord): Promise<boolean>;
  getIncident(key: string): Promise<StoredIncident | null>;
  /** Incidents with a member still firing, oldest first. */
  openIncidents(): Promise<StoredIncident[]>;
  /**
   * Records the resolution's slot and marks the incident resolved by it, once: false, changing
   * nothing, when it was resolved already (by this process or another).
   */
  resolveIncident(key: string, slot: NewSlot): Promise<boolean>;
}

export interface IncidentRow {
  slot_key: string;
  fire_at: string | Date;
  record: string;
  resolved_by: string | null;
}

const INCIDENT_JSON_VERSION = 1;

const recordSchema = z.object({
  version: z.literal(INCIDENT_JSON_VERSION),
  data: z.object({
    summary: z.string(),
    channel: z.string().nullable(),
    members: z.array(
      z.object({
        team: z.string(),
        alert: z.string(),
        metric: z.string(),
        scope: z.string(),
        name: z.string(),
        value: z.number().nullable(),
        fireKey: z.string(),
        channel: z.string().nullable(),
      }),
    ),
  }),
});

export function encodeIncident(record: IncidentRecord): string {
  return JSON.stringify({ version: INCIDENT_JSON_VERSION, data: record });
}

export function toIncident(row: IncidentRow): StoredIncident {
  const parsed = recordSchema.safeParse(JSON.parse(row.record));
  if (!parsed.success) {
    throw new Error(
      `the ledger's incident ${row.slot_key} is not one this insights-reporter reads (${parsed.error.issues[0]?.message}) — upgrade every replica to the same version`,
    );
  }
  return {
    key: row.slot_key,
    fireAt: new Date(row.fire_at),
    record: parsed.data.data,
    resolvedBy: row.resolved_by,
  };
}
