import { DateTime } from "luxon";
import { NOT_SENT_YET } from "../pipeline/alert/acknowledge-stage.js";
import { printableText } from "../render/printable-text.js";
import { fitLine, pad, visibleLength, wrap } from "../render/terminal/terminal-style.js";
import type { Delivery, SlotWithDeliveries } from "../state/ledger.js";

// `history` as people read it when a digest did not arrive: one line per fire (newest first)
// with its slot, then a line per destination with its state and tries, and its last error
// under it. Every time is in one zone, named in the heading, and every line fits `width`.
// What the ledger holds (keys, destinations, errors quoting a server) is made printable first.

/** How to lay the history out: the zone of every time shown, and the columns to fit. */
export interface HistoryLayout {
  /** An IANA zone (UTC unless `history --tz` says otherwise). */
  zone: string;
  width: number;
  /** `start --outbox`'s ledger: its deliveries were written to files, never sent. */
  outbox?: boolean;
}

const INDENT = "  ";
const GAP = "  ";
// A destination column narrower than this breaks an email list after nearly every address.
const MIN_DESTINATION = 16;

/** The history's lines. */
export function formatHistory(
  stored: readonly SlotWithDeliveries[],
  layout: HistoryLayout,
): string[] {
  const slots = stored.map(printableSlot);
  const firedHead = `FIRED (${layout.zone})`;
  const firedWidth = Math.max(visibleLength(firedHead), "yyyy-mm-dd hh:mm".length);
  const rows = slots.map((slot) => ({
    slot,
    states: slot.deliveries.map((d) => stateOf(d, layout.zone, layout.outbox === true)),
  }));
  const stateWidth = Math.max(0, ...rows.flatMap((r) => r.states.map(visibleLength)));
  const triesWidth = Math.max(0, ...slots.flatMap((s) => s.deliveries.map((d) => tries(d).length)));
  const longest = Math.max(
    0,
    ...slots.flatMap((s) => s.deliveries.map((d) => visibleLength(d.destination))),
  );
  const room = layout.width - INDENT.length - stateWidth - triesWidth - GAP.length * 2;
  const destinationWidth = Math.min(longest, Math.max(MIN_DESTINATION, room));

  const lines = [`${pad(firedHead, firedWidth)}${GAP}SLOT`];
  for (const { slot, states } of rows) {
    // A key wider than its column (an acknowledgement's: its fire's key, then the press's) is
    // broken after a dot or a colon, each part under the first: joined, the parts are the key.
    const keyColumn = firedWidth + GAP.length;
    breakKey(slot.key, layout.width - keyColumn).forEach((part, row) => {
      const start =
        row === 0 ? `${pad(localTime(slot.fireAt, layout.zone), firedWidth)}${GAP}` : "";
      lines.push(`${pad(start, keyColumn)}${part}`);
    });
    if (slot.deliveries.length === 0) {
      // An alert evaluation in which nothing changed sends nothing, by design.
      lines.push(
        `${INDENT}${slot.kind === "alert" ? "no change, nothing to send" : "no destination"}`,
      );
      continue;
    }
    slot.deliveries.forEach((delivery, i) => {
      const names = breakAfterCommas(delivery.destination, destinationWidth);
      names.forEach((name, row) => {
        const cells =
          row === 0
            ? [pad(name, destinationWidth), pad(states[i] ?? "", stateWidth), tries(delivery)]
            : [name];
        lines.push(`${INDENT}${cells.join(GAP)}`.trimEnd());
      });
      if (delivery.lastError) {
        // A delivered row's error is the note it was delivered with (a project left out); one
        // not sent yet says why it is due, and nothing failed.
        const label = delivery.state === "sent" || notSentYet(delivery) ? "note" : "last error";
        lines.push(
          ...wrap(
            `${label}: ${delivery.lastError}`,
            layout.width,
            INDENT.repeat(2),
            INDENT.repeat(3),
          ),
        );
      }
    });
  }
  return lines.flatMap((line) => fitLine(line, layout.width));
}

function printableSlot(slot: SlotWithDeliveries): SlotWithDeliveries {
  return {
    ...slot,
    key: printableText(slot.key),
    deliveries: slot.deliveries.map((d) => ({
      ...d,
      destination: printableText(d.destination),
      lastError: d.lastError === null ? null : printableText(d.lastError),
    })),
  };
}

function stateOf(delivery: Delivery, zone: string, outbox: boolean): string {
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
      // An acknowledgement is recorded as owed before its send, to be retried if the send never
      // ends: right after a press it is due, and nothing has failed.
      if (notSentYet(delivery) && delivery.nextAttemptAt)
        return `due ${localTime(delivery.nextAttemptAt, zone)}`;
      return delivery.nextAttemptAt
        ? `failed, retry ${localTime(delivery.nextAttemptAt, zone)}`
        : "failed for good";
  }
}

/** Recorded as owed and never tried: an acknowledgement before its first send. */
function notSentYet(delivery: Delivery): boolean {
  return (
    delivery.state === "failed" && delivery.attempts === 0 && delivery.lastError === NOT_SENT_YET
  );
}

function tries(delivery: Delivery): string {
  return delivery.attempts === 1 ? "1 try" : `${delivery.attempts} tries`;
}

function localTime(instant: Date, zone: string): string {
  return DateTime.fromJSDate(instant, { zone }).toFormat("yyyy-LL-dd HH:mm");
}

/**
 * A slot's key in parts of at most `width` columns, each ending in the `.` or `:` it was broken
 * after: the parts joined are the key. A part with no dot or colon to break at is left whole.
 */
function breakKey(key: string, width: number): string[] {
  const parts: string[] = [];
  let part = "";
  for (const piece of key.split(/(?<=[.:])/)) {
    if (part !== "" && visibleLength(part + piece) > width) {
      parts.push(part);
      part = "";
    }
    part += piece;
  }
  parts.push(part);
  return parts;
}

/** A destination (`email:a@x.com,b@y.com`) in lines of `width`, broken after its commas. */
function breakAfterCommas(destination: string, width: number): string[] {
  const parts = destination.split(/(?<=,)/);
  return wrap(parts.join(" "), width, "", "").map((line) => line.replaceAll(", ", ","));
}
