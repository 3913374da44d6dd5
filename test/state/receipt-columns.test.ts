import { describe, expect, it } from "vitest";
import { receiptColumns, receiptRef } from "../../src/state/receipt-columns.js";

describe("a receipt's ref in the ledger's columns", () => {
  it.each([
    ["slack:C0123", { ref: "1.1" }, { slackTs: "1.1", messageId: null }],
    ["email:qa@example.com", { ref: "<m@x>" }, { slackTs: null, messageId: "<m@x>" }],
    ["webhook:alerts", { ref: "r" }, { slackTs: null, messageId: null }],
    ["slack:C0123", {}, { slackTs: null, messageId: null }],
  ])("%s %j is kept as %j", (destination, receipt, columns) => {
    expect(receiptColumns(destination, receipt)).toEqual(columns);
  });

  it.each([
    [{ slack_ts: "1.1", message_id: null }, "1.1"],
    [{ slack_ts: null, message_id: "<m@x>" }, "<m@x>"],
    [{ slack_ts: null, message_id: null }, null],
  ])("a row with %j reads back as ref %j", (columns, ref) => {
    expect(receiptRef(columns)).toBe(ref);
  });
});
