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
  /** The acknowledgement stored under the action `key`, cleared or not; null if none. */
  acknowledgement(key: string): Acknowledgement | null;
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
