import { describe, expect, it } from "vitest";
import { formatHistory } from "../../src/commands/history-table.js";
import type { Delivery, SlotWithDeliveries } from "../../src/state/ledger.js";

function aDelivery(overrides: Partial<Delivery> = {}): Delivery {
  return {
    destination: "slack:C0123ABCD",
    state: "sent",
    attempts: 1,
    lastError: null,
    nextAttemptAt: null,
    slackTs: "1.000100",
    messageId: null,
    updatedAt: new Date("2026-11-16T08:00:02Z"),
    claimedBy: null,
    claim: 0,
    claimedAt: null,
    ...overrides,
  };
}

function aSlot(overrides: Partial<SlotWithDeliveries> = {}): SlotWithDeliveries {
  return {
    key: "checkout.daily.2026-11-15",
    team: "checkout",
    kind: "digest",
    job: "daily",
    fireAt: new Date("2026-11-16T08:00:00Z"),
    period: { start: "2026-11-15", end: "2026-11-15" },
    createdAt: new Date("2026-11-16T08:00:01Z"),
    finishedAt: null,
    deliveries: [aDelivery()],
    ...overrides,
  };
}

describe("formatHistory", () => {
  it("lists each destination with its state, tries and last error, in the team's time", () => {
    const lines = formatHistory(
      [
        aSlot({
          deliveries: [
            aDelivery(),
            aDelivery({
              destination: "email:qa@example.com",
              state: "failed",
              attempts: 2,
              lastError: "connect ECONNREFUSED 127.0.0.1:2525",
              nextAttemptAt: new Date("2026-11-16T08:06:00Z"),
            }),
          ],
        }),
        aSlot({
          key: "gone.daily.2026-11-14",
          team: "gone",
          fireAt: new Date("2026-11-15T08:00:00Z"),
          deliveries: [aDelivery({ state: "failed", attempts: 27, lastError: "not_in_channel" })],
        }),
      ],
      (team) => (team === "checkout" ? "Europe/Berlin" : null),
    );
    expect(lines).toEqual([
      "FIRED                    SLOT                       DESTINATION           STATE                                  TRIES  LAST ERROR",
      "2026-11-16 09:00 +01:00  checkout.daily.2026-11-15  slack:C0123ABCD       sent                                   1",
      "                                                    email:qa@example.com  failed, retry 2026-11-16 09:06 +01:00  2      connect ECONNREFUSED 127.0.0.1:2525",
      "2026-11-15 08:00 +00:00  gone.daily.2026-11-14      slack:C0123ABCD       failed for good                        27     not_in_channel",
    ]);
  });

  it("says when a slot had no destination", () => {
    expect(formatHistory([aSlot({ deliveries: [] })], () => "UTC")[1]).toMatch(
      /\s-\s+no destination$/,
    );
  });

  it("says an alert evaluation that changed nothing sent nothing", () => {
    const slot = aSlot({ kind: "alert", key: "checkout.alert.flaky.2026-11-15", deliveries: [] });
    expect(formatHistory([slot], () => "UTC")[1]).toMatch(/\s-\s+no change, nothing to send$/);
  });
});
