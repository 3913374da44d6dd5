import { describe, expect, it } from "vitest";
import { receiptColumns, receiptRef } from "../../src/state/receipt-columns.js";

describe("a receipt's ref in the ledger's columns", () => {
  it.each([
    ["slack:C0123", { ref: "1.1" }, { slack_ts: "1.1", message_id: null }],
    ["email:qa@example.com", { ref: "<m@x>" }, { slack_ts: null, message_id: "<m@x>" }],
    ["webhook:alerts", { ref: "r" }, { slack_ts: null, message_id: null }],
    ["slack:C0123", {}, { slack_ts: null, message_id: null }],
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
