import { DateTime } from "luxon";
import type { Delivery, SlotWithDeliveries } from "../state/ledger.js";

// `history` as a table people read when a digest did not arrive: a row per destination of
// each slot, newest fire first, times in the team's zone (UTC for a team no longer configured).

const HEADER = ["FIRED", "SLOT", "DESTINATION", "STATE", "TRIES", "LAST ERROR"] as const;

/** The table's lines; `zoneOf` gives a team's IANA zone, or null. */
export function formatHistory(
  slots: readonly SlotWithDeliveries[],
  zoneOf: (team: string) => string | null,
  options: { outbox?: boolean } = {},
): string[] {
  const rows: string[][] = [];
  for (const slot of slots) {
    const zone = zoneOf(slot.team) ?? "UTC";
    const fired = localTime(slot.fireAt, zone);
    if (slot.deliveries.length === 0) {
      // An alert evaluation in which nothing changed sends nothing, by design.
      const state = slot.kind === "alert" ? "no change, nothing to send" : "no destination";
      rows.push([fired, slot.key, "-", state, "", ""]);
      continue;
    }
    slot.deliveries.forEach((delivery, i) => {
      rows.push([
        i === 0 ? fired : "",
        i === 0 ? slot.key : "",
        delivery.destination,
        stateText(delivery, zone, options.outbox === true),
        String(delivery.attempts),
        // A delivered row's error is the note it was delivered with (a project left out).
        delivery.lastError ?? "",
      ]);
    });
  }
  return alignColumns([[...HEADER], ...rows]);
}

function stateText(delivery: Delivery, zone: string, outbox: boolean): string {
  switch (delivery.state) {
    case "sent":
      // start --outbox's ledger: written to files, never sent.
      return outbox ? "written to the outbox" : "sent";
    case "pending":
      return "pending";
    case "sending":
      // A daemon is sending it now, or one died mid-send: the next start checks before resending.
      return "sending";
    case "failed":
      return delivery.nextAttemptAt
        ? `failed, retry ${localTime(delivery.nextAttemptAt, zone)}`
        : "failed for good";
  }
}

function localTime(instant: Date, zone: string): string {
  return DateTime.fromJSDate(instant, { zone }).toFormat("yyyy-LL-dd HH:mm ZZ");
}

/** Pads every column but the last to its widest cell. */
function alignColumns(rows: readonly string[][]): string[] {
  const widths =
    rows[0]?.map((_, col) => Math.max(...rows.map((row) => row[col]?.length ?? 0))) ?? [];
  return rows.map((row) =>
    row
      .map((cell, col) => (col === row.length - 1 ? cell : cell.padEnd(widths[col] ?? 0)))
      .join("  ")
      .trimEnd(),
  );
}
