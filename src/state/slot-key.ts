// The key that names a slot: team, kind, job and the period it covers. It is built from the
// period, not the fire time, so two fires covering the same period are the same slot (and
// deliver once). The same string names the outbox file, the ledger row and the Slack metadata.

import type { SlotKind } from "./ledger.js";

/**
 * `checkout.daily.2026-11-15` for a digest, `checkout.alert.flaky-rate.2026-11-15` for an
 * alert: an alert and a digest of one team may share a name and still never share a key
 * (names are `[a-z0-9-]`, so no digest key has the alert key's four parts).
 */
export function slotKey(
  team: string,
  kind: SlotKind,
  job: string,
  period: { start: string; end: string },
): string {
  const span = period.start === period.end ? period.start : `${period.start}_${period.end}`;
  return kind === "alert" ? `${team}.alert.${job}.${span}` : `${team}.${job}.${span}`;
}
