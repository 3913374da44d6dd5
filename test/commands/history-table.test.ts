import stringWidth from "string-width";
import { describe, expect, it } from "vitest";
import { formatHistory } from "../../src/commands/history-table.js";
import { NOT_SENT_YET } from "../../src/pipeline/alert/acknowledge-stage.js";
import type { Delivery, SlotWithDeliveries } from "../../src/state/ledger.js";

function aDelivery(overrides: Partial<Delivery> = {}): Delivery {
  return {
    destination: "slack:C0123ABCD",
    state: "sent",
    attempts: 1,
    lastError: null,
    nextAttemptAt: null,
    ref: "1.000100",
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

const UTC = { zone: "UTC", width: 80 };

describe("formatHistory", () => {
  it("lists each fire on its line, then each destination with its state and tries, in one zone", () => {
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
          key: "payments.daily.2026-11-14",
          team: "payments",
          fireAt: new Date("2026-11-15T14:00:00Z"),
          deliveries: [aDelivery({ state: "failed", attempts: 27, lastError: "not_in_channel" })],
        }),
      ],
      UTC,
    );
    expect(lines).toEqual([
      "FIRED (UTC)       SLOT",
      "2026-11-16 08:00  checkout.daily.2026-11-15",
      "  slack:C0123ABCD       sent                            1 try",
      "  email:qa@example.com  failed, retry 2026-11-16 08:06  2 tries",
      "    last error: connect ECONNREFUSED 127.0.0.1:2525",
      "2026-11-15 14:00  payments.daily.2026-11-14",
      "  slack:C0123ABCD       failed for good                 27 tries",
      "    last error: not_in_channel",
    ]);
  });

  it("shows every time in the zone asked for, named in the heading", () => {
    const failed = aDelivery({
      state: "failed",
      attempts: 1,
      nextAttemptAt: new Date("2026-11-16T08:05:00Z"),
    });
    const lines = formatHistory([aSlot({ deliveries: [failed] })], {
      zone: "America/New_York",
      width: 80,
    });
    expect(lines.slice(0, 3)).toEqual([
      "FIRED (America/New_York)  SLOT",
      "2026-11-16 03:00          checkout.daily.2026-11-15",
      "  slack:C0123ABCD  failed, retry 2026-11-16 03:05  1 try",
    ]);
  });

  it("fits 80 columns: a long email list breaks after its commas, a long error between words", () => {
    const emails = Array.from({ length: 6 }, (_, i) => `qa-team-${i}@example.com`).join(",");
    const error =
      "554 5.7.1 message rejected: the sending domain example.com has no SPF record allowing this relay — ask the mail admin";
    const lines = formatHistory(
      [
        aSlot({
          deliveries: [
            aDelivery({ destination: `email:${emails}`, state: "failed", lastError: error }),
          ],
        }),
      ],
      UTC,
    );
    for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(80);
    // The destination's lines, then the error's, indented under it.
    const destination = lines.slice(2).filter((line) => !line.startsWith("    "));
    expect(destination.map((line) => line.trim().split(/\s+/)[0]).join("")).toBe(`email:${emails}`);
    expect(destination).toHaveLength(3);
    const errorLines = lines.slice(2 + destination.length);
    expect(errorLines.join(" ").replaceAll(/\s+/g, " ").trim()).toBe(`last error: ${error}`);
  });

  it("says when a slot had no destination", () => {
    expect(formatHistory([aSlot({ deliveries: [] })], UTC)[2]).toBe("  no destination");
  });

  it("says an alert evaluation that changed nothing sent nothing", () => {
    const slot = aSlot({ kind: "alert", key: "checkout.alert.flaky.2026-11-15", deliveries: [] });
    expect(formatHistory([slot], UTC)[2]).toBe("  no change, nothing to send");
  });

  // An acknowledgement's slot: the fire's key, then the press's (channel, message, press, user).
  const ACK_KEY =
    "design.alert.flaky-rate.2026-11-23.acknowledged.acknowledge:C0123ABCD:1795848413.123456:1795848420.654321:U0123ABCD";

  it("breaks a key wider than its column after a dot or colon, the parts under the first", () => {
    const lines = formatHistory([aSlot({ kind: "acknowledgement", key: ACK_KEY })], UTC);
    for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(80);
    const keyLines = lines.slice(1).filter((line) => !line.startsWith("  slack:"));
    expect(keyLines).toEqual([
      "2026-11-16 08:00  design.alert.flaky-rate.2026-11-23.acknowledged.acknowledge:",
      "                  C0123ABCD:1795848413.123456:1795848420.654321:U0123ABCD",
    ]);
    // A reader gets the key back by joining the parts, their indent left out.
    expect(keyLines.map((line) => line.slice(18)).join("")).toBe(ACK_KEY);
  });

  it("says an acknowledgement just pressed is due, not failed, with why as a note", () => {
    const due = aDelivery({
      state: "failed",
      attempts: 0,
      lastError: NOT_SENT_YET,
      nextAttemptAt: new Date("2026-11-16T08:01:00Z"),
      ref: null,
    });
    const lines = formatHistory([aSlot({ kind: "acknowledgement", deliveries: [due] })], UTC);
    expect(lines.slice(2)).toEqual([
      "  slack:C0123ABCD  due 2026-11-16 08:01  0 tries",
      `    note: ${NOT_SENT_YET}`,
    ]);
  });
});
