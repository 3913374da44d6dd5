import { expect, it } from "vitest";
import { historyStates } from "../../bench/soak-history.js";
import { formatHistory } from "../../src/commands/history-table.js";
import type { Delivery, SlotWithDeliveries } from "../../src/state/ledger.js";

// The soak reads the ledger as `history` prints it, so it is read here from the table the
// command itself lays out: a change to the table that the soak cannot read fails here, not as
// "absent" slots in a ten-minute run (as it did after the table became a line per destination).

function delivery(destination: string, overrides: Partial<Delivery> = {}): Delivery {
  return {
    destination,
    state: "sent",
    attempts: 1,
    lastError: null,
    nextAttemptAt: null,
    ref: null,
    updatedAt: new Date("2026-11-25T18:31:02Z"),
    claim: 0,
    claimedBy: null,
    claimedAt: null,
    ...overrides,
  };
}

function slot(key: string, deliveries: Delivery[]): SlotWithDeliveries {
  return {
    key,
    team: "soak",
    kind: "digest",
    job: "at-1831",
    fireAt: new Date("2026-11-25T18:31:00Z"),
    period: { start: "2026-11-24", end: "2026-11-24" },
    createdAt: new Date("2026-11-25T18:31:01Z"),
    finishedAt: null,
    deliveries,
  };
}

it("reads each slot's destination states from the table `history` prints", () => {
  const table = formatHistory(
    [
      slot("soak.at-1831.2026-11-24", [
        delivery("email:qa@example.com,lead@example.com,manager@example.com,dev@example.com"),
        delivery("slack:C0123ABCD", {
          state: "failed",
          attempts: 3,
          lastError: "slack: ratelimited",
          nextAttemptAt: new Date("2026-11-25T18:33:00Z"),
        }),
      ]),
      slot("soak-alerts.alert.at-1831.2026-11-24", []),
      slot("soak.at-1830.2026-11-24", [delivery("slack:C0123ABCD", { attempts: 2 })]),
    ],
    // The width `history` lays out for when its output is not a terminal, as in the soak.
    { zone: "UTC", width: 80 },
  ).join("\n");
  expect(historyStates(table)).toEqual(
    new Map([
      ["soak.at-1831.2026-11-24", ["sent", "failed, retry 2026-11-25 18:33"]],
      ["soak-alerts.alert.at-1831.2026-11-24", []],
      ["soak.at-1830.2026-11-24", ["sent"]],
    ]),
  );
});
