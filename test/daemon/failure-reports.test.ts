import { describe, expect, it } from "vitest";
import { aTeam, useHarness } from "./daemon-harness.js";

// A failure that persists is logged once, not every tick; but once it has recovered, the same
// failure coming back is news again and is logged again.

const harness = useHarness();

describe("the scheduler's failure log", () => {
  it("logs a planning failure once while it lasts, and again when it comes back after a recovery", async () => {
    const h = await harness([aTeam()], { start: "2026-06-10T06:00:00Z" });
    const isSlotDelivered = h.ledger.isSlotDelivered.bind(h.ledger);
    let broken = true;
    h.ledger.isSlotDelivered = (key: string) =>
      broken ? Promise.reject(new Error("disk I/O error")) : isSlotDelivered(key);
    const failures = () =>
      h.logs.filter(
        (line) => line.msg === "could not plan the job; it does not run until this is fixed",
      );

    // 09:00:01 and 09:00:02 in Berlin: the fire is due, planning fails twice.
    await h.tickAt("2026-06-10T07:00:01Z");
    await h.tickAt("2026-06-10T07:00:02Z");
    expect(failures()).toHaveLength(1);

    broken = false;
    await h.tickAt("2026-06-10T07:00:03Z");
    expect(h.runs.map((r) => r.key)).toEqual(["checkout.daily.2026-06-09"]);

    // The next day's fire: the same failure again, after it had recovered.
    broken = true;
    await h.tickAt("2026-06-11T07:00:01Z");
    await h.tickAt("2026-06-11T07:00:02Z");
    expect(failures()).toHaveLength(2);
    expect(failures()[1]).toMatchObject({ job: "checkout/digest/daily", err: "disk I/O error" });
  });
});
