import { describe, expect, it } from "vitest";
import { receiptColumns } from "../../src/state/receipt-columns.js";

describe("a receipt's ref in the ledger's columns", () => {
  it.each([
    ["slack:C0123", { ref: "1.1" }, { slackTs: "1.1", messageId: null }],
    ["email:qa@example.com", { ref: "<m@x>" }, { slackTs: null, messageId: "<m@x>" }],
    ["webhook:alerts", { ref: "r" }, { slackTs: null, messageId: null }],
    ["slack:C0123", {}, { slackTs: null, messageId: null }],
  ])("%s %j is kept as %j", (destination, receipt, columns) => {
    expect(receiptColumns(destination, receipt)).toEqual(columns);
  });
});
