import { describe, expect, it } from "vitest";
import { beginAttempt } from "./begin-attempt.js";
import { aSlot, manualClock, useTempLedgers } from "./ledger-builders.js";

const MINUTE = 60_000;

describe("history", () => {
  const ledgers = useTempLedgers();

  async function seeded() {
    const clock = manualClock("2026-11-16T08:00:00.000Z");
    const ledger = ledgers.open(undefined, { now: clock.now });
    const day = (date: string, team = "checkout") =>
      aSlot({
        key: `${team}.daily.${date}`,
        team,
        fireAt: new Date(`${date}T08:00:00.000Z`),
        period: { start: date, end: date },
        destinations: ["slack:C0123", "email:qa@example.com"],
      });
    await ledger.recordSlot(day("2026-11-14"));
    await ledger.recordSlot(day("2026-11-15"));
    await ledger.recordSlot(day("2026-11-15", "payments"));
    await ledger.recordSlot(day("2026-11-13"));
    for (const key of ["checkout.daily.2026-11-13", "checkout.daily.2026-11-14"]) {
      for (const destination of ["slack:C0123", "email:qa@example.com"]) {
        await beginAttempt(ledger, key, destination);
        await ledger.markSent(key, destination, {
          ref: destination.startsWith("slack") ? "1.1" : "<m>",
        });
      }
    }
    await beginAttempt(ledger, "checkout.daily.2026-11-15", "slack:C0123");
    await ledger.markSent("checkout.daily.2026-11-15", "slack:C0123", { ref: "2.2" });
    await beginAttempt(ledger, "checkout.daily.2026-11-15", "email:qa@example.com");
    clock.advance(MINUTE);
    await ledger.markFailed(
      "checkout.daily.2026-11-15",
      "email:qa@example.com",
      "the SMTP server refused the login — check the user and password in SMTP_URL",
      new Date(clock.now().getTime() + 5 * MINUTE),
    );
    return ledger;
  }

  it("lists recent slots newest first, with each destination's state, attempts and last error", async () => {
    const rows = (await (await seeded()).history({ team: "checkout", limit: 2 })).map((slot) => ({
      key: slot.key,
      finished: slot.finishedAt !== null,
      deliveries: slot.deliveries.map((d) => [d.destination, d.state, d.attempts, d.lastError]),
    }));
    expect(rows).toEqual([
      {
        key: "checkout.daily.2026-11-15",
        finished: false,
        deliveries: [
          [
            "email:qa@example.com",
            "failed",
            1,
            "the SMTP server refused the login — check the user and password in SMTP_URL",
          ],
          ["slack:C0123", "sent", 1, null],
        ],
      },
      {
        key: "checkout.daily.2026-11-14",
        finished: true,
        deliveries: [
          ["email:qa@example.com", "sent", 1, null],
          ["slack:C0123", "sent", 1, null],
        ],
      },
    ]);
  });

  it("covers every team without a filter, and honours the limit", async () => {
    const ledger = await seeded();
    expect((await ledger.history({ limit: 10 })).map((s) => s.key)).toEqual([
      "payments.daily.2026-11-15",
      "checkout.daily.2026-11-15",
      "checkout.daily.2026-11-14",
      "checkout.daily.2026-11-13",
    ]);
    expect(await ledger.history({ limit: 0 })).toEqual([]);
    expect(await ledger.history({ team: "nobody", limit: 10 })).toEqual([]);
  });
});
