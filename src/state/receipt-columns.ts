import type { DeliveryReceipt } from "./ledger.js";

// A receipt's `ref` is whatever the destination handed back; the ledger keeps it in the column
// its kind has always used (`slack_ts`, `message_id`), so stores written before `ref` read the
// same. The one place that knows which kind's ref goes where; a kind with no column keeps none.

/** A delivery row's receipt columns, as both stores name them. */
export interface ReceiptColumns {
  slack_ts: string | null;
  message_id: string | null;
}

/** The delivery row's receipt columns for a receipt sent to `destination` (`slack:C0123`). */
export function receiptColumns(destination: string, receipt: DeliveryReceipt): ReceiptColumns {
  const ref = receipt.ref ?? null;
  return {
    slack_ts: destination.startsWith("slack:") ? ref : null,
    message_id: destination.startsWith("email:") ? ref : null,
  };
}

/** The ref a delivery row keeps: whichever receipt column its kind wrote (never both). */
export function receiptRef(row: ReceiptColumns): string | null {
  return row.slack_ts ?? row.message_id;
}
