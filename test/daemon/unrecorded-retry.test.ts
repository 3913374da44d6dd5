import { describe, expect, it } from "vitest";
import type { AlertConfig } from "../../src/config/types.js";
import type { RunSlot } from "../../src/scheduler/scheduler.js";
import { rule } from "../alerts/alert-builders.js";
import { aTeam, keyForFire, useHarness } from "./daemon-harness.js";

// An alert evaluation that fails before anything is recorded (the insights API down at the
// fire) leaves no row in the ledger to retry from. The scheduler keeps that retry itself, on
// the same backoff as a failed delivery, until the slot's deadline.

const harness = useHarness();

const alert: AlertConfig = {
  ...rule(),
  window: "previous_day",
  schedule: "0 9 * * *",
  scope: "both",
  catchUpMs: 6 * 3_600_000,
  chart: false,
  slack: null,
  email: null,
  msteams: null,
  webhook: null,
  pagerduty: null,
};

describe("a slot whose run failed before it was recorded", () => {
  it("is run again after the retry delay, and not before", async () => {
    const calls: string[] = [];
    const runSlot: RunSlot = async (job, fire, context) => {
      const key = keyForFire(job, fire);
      calls.push(key);
      if (calls.length === 1) throw new Error("the insights API did not answer");
      await context.ledger.recordSlot({
        key,
        team: job.team.name,
        kind: job.kind,
        job: job.name,
        fireAt: fire,
        period: { start: "2026-06-09", end: "2026-06-09" },
        destinations: [],
      });
      return { key, deliveries: [] };
    };
    const h = await harness([aTeam({ digests: [], alerts: [alert] })], {
      runSlot,
      retryDelaysMs: [60_000],
    });

    await h.tickAt("2026-06-10T07:00:01Z"); // 09:00:01 in Berlin: the evaluation fails
    expect(calls).toEqual(["checkout.alert.flaky-rate.2026-06-09"]);
    await h.tickAt("2026-06-10T07:00:30Z");
    expect(calls).toHaveLength(1);
    await h.tickAt("2026-06-10T07:01:05Z"); // past the one-minute retry delay
    expect(calls).toEqual([
      "checkout.alert.flaky-rate.2026-06-09",
      "checkout.alert.flaky-rate.2026-06-09",
    ]);
    expect(await h.ledger.getSlot("checkout.alert.flaky-rate.2026-06-09")).toBeTruthy();
    await h.tickAt("2026-06-10T07:05:00Z");
    expect(calls).toHaveLength(2);
  });
});
