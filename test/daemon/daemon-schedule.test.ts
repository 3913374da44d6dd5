import { describe, expect, it } from "vitest";
import { createDaemonMetrics } from "../../src/ops/metrics.js";
import { localLabel } from "../timetable/local-label.js";
import { aDigest, aTeam, useHarness } from "./daemon-harness.js";

const SECOND = 1_000;
const HOUR = 3_600_000;
const harness = useHarness();

/** The fires the daemon ran, as the team's clock shows them, and how late each run started. */
function ranAt(h: { runs: Array<{ fire: Date; startedAt: Date }> }, zone: string) {
  return h.runs.map((r) => ({
    fire: localLabel(r.fire, zone),
    lateBySeconds: (r.startedAt.getTime() - r.fire.getTime()) / SECOND,
  }));
}

describe("the daemon across DST changes, ticking every 30 s", () => {
  const cases = [
    {
      name: "Berlin spring-forward: 02:30 does not exist, fires once at 03:00",
      zone: "Europe/Berlin",
      schedule: "30 2 * * *",
      from: "2026-03-28T22:00:00Z",
      to: "2026-03-29T03:00:00Z",
      fires: ["2026-03-29 03:00 GMT+02:00"],
    },
    {
      name: "Berlin fall-back: 02:30 happens twice, fires once at the first",
      zone: "Europe/Berlin",
      schedule: "30 2 * * *",
      from: "2026-10-24T22:00:00Z",
      to: "2026-10-25T03:00:00Z",
      fires: ["2026-10-25 02:30 GMT+02:00"],
    },
    {
      name: "New York spring-forward: 02:30 does not exist, fires once at 03:00",
      zone: "America/New_York",
      schedule: "30 2 * * *",
      from: "2026-03-08T04:00:00Z",
      to: "2026-03-08T09:00:00Z",
      fires: ["2026-03-08 03:00 GMT-04:00"],
    },
    {
      name: "New York fall-back: 01:30 happens twice, fires once at the first",
      zone: "America/New_York",
      schedule: "30 1 * * *",
      from: "2026-11-01T03:00:00Z",
      to: "2026-11-01T08:00:00Z",
      fires: ["2026-11-01 01:30 GMT-04:00"],
    },
  ];

  for (const c of cases) {
    it(c.name, async () => {
      const team = aTeam({ timezone: c.zone, digests: [aDigest({ schedule: c.schedule })] });
      const h = await harness([team]);
      await h.tickEvery(c.from, c.to, 30 * SECOND);
      const ran = ranAt(h, c.zone);
      expect(ran.map((r) => r.fire)).toEqual(c.fires);
      for (const r of ran) expect(r.lateBySeconds).toBeLessThan(30);
    });
  }
});

describe("catch-up at start-up", () => {
  const team = aTeam({ digests: [aDigest({ schedule: "0 9 * * *", catchUpMs: 6 * HOUR })] });

  it("delivers today's fire missed 4 h ago, within the 6 h window, once", async () => {
    const h = await harness([team]);
    await h.tickAt("2026-06-10T11:00:00Z"); // 13:00 in Berlin
    await h.tickAt("2026-06-10T11:00:01Z");
    expect(ranAt(h, "Europe/Berlin")).toEqual([
      { fire: "2026-06-10 09:00 GMT+02:00", lateBySeconds: 4 * 3600 },
    ]);
    expect(await h.ledger.isSlotDelivered("checkout.daily.2026-06-09")).toBe(true);
  });

  it("reports the period of the fire, not of the day it ran on, when it ran past midnight", async () => {
    const late = aTeam({ digests: [aDigest({ schedule: "30 23 * * *", catchUpMs: 6 * HOUR })] });
    const h = await harness([late]);
    // 23:30 on Jun 10 in Berlin was due; the daemon comes up at 00:30 on Jun 11.
    await h.tickAt("2026-06-10T22:30:00Z");
    expect(h.runs.map((r) => r.key)).toEqual(["checkout.daily.2026-06-09"]);
  });

  it("skips a fire missed 7 h ago, beyond the window, and says so once", async () => {
    const h = await harness([team]);
    await h.tickAt("2026-06-10T06:00:00Z"); // up at 08:00 in Berlin, before the 09:00 fire …
    await h.tickAt("2026-06-10T14:00:00Z"); // … then down until 16:00
    await h.tickAt("2026-06-10T14:00:01Z");
    await h.tickAt("2026-06-10T14:00:02Z");
    expect(h.runs).toEqual([]);
    const skipped = h.logs.filter((l) => String(l.msg).startsWith("missed slot skipped"));
    expect(skipped).toEqual([
      expect.objectContaining({ slot: "checkout.daily.2026-06-09", reason: "outside-window" }),
    ]);
  });

  it("after three days down, delivers only the latest fire, never a burst of replays", async () => {
    const h = await harness([team]);
    await h.tickAt("2026-06-07T07:00:30Z");
    await h.tickAt("2026-06-10T08:00:00Z"); // the daemon was "down" from the 7th to the 10th
    expect(h.runs.map((r) => r.key)).toEqual([
      "checkout.daily.2026-06-06",
      "checkout.daily.2026-06-09",
    ]);
  });

  it("does not run a slot again after a restart on the same ledger", async () => {
    const first = await harness([team]);
    await first.tickAt("2026-06-10T07:00:05Z");
    await first.daemon.stop(0);
    await first.ledger.releaseLease();
    const dir = first.ledger.location.replace(/\/ledger\.sqlite$/, "");
    const second = await harness([team], { ledgerDir: dir, start: "2026-06-10T07:05:00Z" });
    await second.tickAt("2026-06-10T07:05:00Z");
    expect(first.runs).toHaveLength(1);
    expect(second.runs).toEqual([]);
  });
});

describe("a job's first sighting", () => {
  const team = aTeam({ digests: [aDigest({ schedule: "0 9 * * *", catchUpMs: 6 * HOUR })] });
  const skippedCount = async (metrics: ReturnType<typeof createDaemonMetrics>) =>
    (await metrics.registry.getSingleMetric("insights_reporter_slots_total")?.get())?.values.find(
      (v) => v.labels.result === "skipped",
    )?.value ?? 0;

  it("a fresh deployment counts no skipped slot from before the job existed", async () => {
    const metrics = createDaemonMetrics();
    const h = await harness([team], { metrics });
    await h.tickAt("2026-06-10T14:00:00Z"); // first start at 16:00 in Berlin, 7 h after 09:00
    expect(h.runs).toEqual([]);
    expect(h.logs.filter((l) => String(l.msg).startsWith("missed slot skipped"))).toEqual([]);
    expect(await skippedCount(metrics)).toBe(0);
  });

  it("remembers the first sighting across a restart: a fire missed while down still counts", async () => {
    const first = await harness([team], { start: "2026-06-10T14:00:00Z" });
    await first.tickAt("2026-06-10T14:00:00Z");
    await first.daemon.stop(0);
    await first.ledger.releaseLease();
    const dir = first.ledger.location.replace(/\/ledger\.sqlite$/, "");
    // Down from the 10th to the 11th at 16:00: the 11th's 09:00 fire was missed by a job
    // that existed, and is counted.
    const metrics = createDaemonMetrics();
    const second = await harness([team], {
      ledgerDir: dir,
      start: "2026-06-11T14:00:00Z",
      metrics,
    });
    await second.tickAt("2026-06-11T14:00:00Z");
    const skipped = second.logs.filter((l) => String(l.msg).startsWith("missed slot skipped"));
    expect(skipped).toEqual([
      expect.objectContaining({ slot: "checkout.daily.2026-06-10", reason: "outside-window" }),
    ]);
    expect(await skippedCount(metrics)).toBe(1);
  });
});

describe("slots", () => {
  it("two fires that cover the same period are one slot: the 17:00 fire sends nothing", async () => {
    const team = aTeam({ digests: [aDigest({ schedule: "0 9,17 * * *" })] });
    const h = await harness([team]);
    await h.tickEvery("2026-06-10T06:59:00Z", "2026-06-10T15:01:00Z", 60 * SECOND);
    expect(h.runs.map((r) => localLabel(r.fire, "Europe/Berlin"))).toEqual([
      "2026-06-10 09:00 GMT+02:00",
    ]);
    expect((await h.ledger.history({ limit: 10 })).map((s) => s.key)).toEqual([
      "checkout.daily.2026-06-09",
    ]);
  });

  it("fires each team's digest in its own zone", async () => {
    const berlin = aTeam({ name: "checkout", timezone: "Europe/Berlin" });
    const newYork = aTeam({ name: "mobile", timezone: "America/New_York" });
    const h = await harness([berlin, newYork]);
    await h.tickEvery("2026-06-10T06:59:00Z", "2026-06-10T13:01:00Z", 60 * SECOND);
    expect(h.runs.map((r) => [r.job, r.fire.toISOString()])).toEqual([
      ["checkout/digest/daily", "2026-06-10T07:00:00.000Z"],
      ["mobile/digest/daily", "2026-06-10T13:00:00.000Z"],
    ]);
  });

  it("never runs two slots of one job at once: the next waits until the first ends", async () => {
    let release!: () => void;
    const blocked = new Promise<void>((resolve) => {
      release = resolve;
    });
    const team = aTeam({ digests: [aDigest({ schedule: "0 * * * *", period: "previous_day" })] });
    const h = await harness([team], { gate: () => blocked });
    await h.tickOnly("2026-06-10T06:00:00Z"); // the 08:00 Berlin fire is due; its run hangs
    expect(h.daemon.status().running).toEqual(["checkout.daily.2026-06-09"]);
    await h.tickOnly("2026-06-11T06:00:10Z"); // a day later, the next slot is due, but the job is busy
    expect(h.runs).toHaveLength(1);
    release();
    await h.daemon.idle();
    await h.tickAt("2026-06-11T06:00:20Z");
    expect(h.runs.map((r) => r.key)).toEqual([
      "checkout.daily.2026-06-09",
      "checkout.daily.2026-06-10",
    ]);
  });
});
