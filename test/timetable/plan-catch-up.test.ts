import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { periodsForFire } from "../../src/periods/periods-for-fire.js";
import { slotKey } from "../../src/state/slot-key.js";
import { nextFires } from "../../src/timetable/cron-fires.js";
import { type CatchUpInput, planCatchUp } from "../../src/timetable/plan-catch-up.js";
import { localLabel } from "./local-label.js";

const ZONE = "Europe/Berlin";
const HOUR = 3_600_000;
const at = (iso: string) => new Date(iso);
// A job the ledger has known for years: every missed fire of it counts.
const LONG_AGO = new Date("2020-01-01T00:00:00Z");

/** The key of a digest reporting the previous day, as the daemon builds it. */
const dailyKey = (fire: Date) =>
  slotKey(
    "checkout",
    "digest",
    "daily",
    periodsForFire({
      fireAt: fire,
      timezone: ZONE,
      kind: "previous_day",
      compareTo: "previous_period",
      weekStartsOn: 1,
    }).current,
  );

/** One key per fire, as an hourly job's would be if each covered its own hour. */
const perFireKey = (fire: Date) => `checkout.hourly.${localLabel(fire, ZONE).slice(0, 16)}`;

async function plan(
  overrides: Partial<CatchUpInput> & Pick<CatchUpInput, "now">,
  delivered: string[] = [],
) {
  const result = await planCatchUp({
    schedule: "0 9 * * *",
    zone: ZONE,
    catchUpMs: 6 * HOUR,
    lastCheckedAt: null,
    firstSeenAt: LONG_AGO,
    keyForFire: dailyKey,
    isDelivered: (key) => delivered.includes(key),
    ...overrides,
  });
  return {
    due: result.due && { at: localLabel(result.due.fire, ZONE), key: result.due.key },
    skipped: result.skipped.map((s) => ({
      at: localLabel(s.fire, ZONE),
      key: s.key,
      reason: s.reason,
    })),
  };
}

describe("planCatchUp at start-up", () => {
  it("delivers a fire missed within the window, and logs the older one as outside it", async () => {
    // 11:00 in Berlin: today's 09:00 is 2 h late; yesterday's is long gone.
    expect(await plan({ now: at("2026-06-10T09:00:00Z") })).toEqual({
      due: { at: "2026-06-10 09:00 GMT+02:00", key: "checkout.daily.2026-06-09" },
      skipped: [
        {
          at: "2026-06-09 09:00 GMT+02:00",
          key: "checkout.daily.2026-06-08",
          reason: "outside-window",
        },
      ],
    });
  });

  it("does not deliver a fire older than the window", async () => {
    // 16:00: today's 09:00 is 7 h late with a 6 h window.
    expect(await plan({ now: at("2026-06-10T14:00:00Z") }, ["checkout.daily.2026-06-08"])).toEqual({
      due: null,
      skipped: [
        {
          at: "2026-06-10 09:00 GMT+02:00",
          key: "checkout.daily.2026-06-09",
          reason: "outside-window",
        },
      ],
    });
  });

  it("finds nothing to do when the latest slot is already delivered", async () => {
    const delivered = ["checkout.daily.2026-06-09", "checkout.daily.2026-06-08"];
    expect(await plan({ now: at("2026-06-10T09:00:00Z") }, delivered)).toEqual({
      due: null,
      skipped: [],
    });
  });

  it("after hours of downtime delivers only the latest fire, never a burst", async () => {
    // Hourly, down from 08:30 to 14:30 local, 6 h window: 09:00 … 14:00 were missed.
    const result = await plan(
      { schedule: "0 * * * *", keyForFire: perFireKey, now: at("2026-06-10T12:30:00Z") },
      ["checkout.hourly.2026-06-10 11:00"],
    );
    expect(result.due).toEqual({
      at: "2026-06-10 14:00 GMT+02:00",
      key: "checkout.hourly.2026-06-10 14:00",
    });
    expect(result.skipped.map((s) => [s.at.slice(11, 16), s.reason])).toEqual([
      ["13:00", "superseded"],
      ["12:00", "superseded"],
      // 11:00 was delivered before the downtime: not skipped.
      ["10:00", "superseded"],
      ["09:00", "superseded"],
      ["08:00", "outside-window"],
    ]);
  });

  it("asks an asynchronous isDelivered (the ledger's) and plans as with a synchronous one", async () => {
    const delivered = ["checkout.daily.2026-06-08"];
    const result = await planCatchUp({
      schedule: "0 9 * * *",
      zone: ZONE,
      catchUpMs: 6 * HOUR,
      lastCheckedAt: null,
      firstSeenAt: LONG_AGO,
      now: at("2026-06-10T14:00:00Z"),
      keyForFire: dailyKey,
      isDelivered: async (key) => delivered.includes(key),
    });
    expect(result.due).toBeNull();
    expect(result.skipped.map((s) => s.key)).toEqual(["checkout.daily.2026-06-09"]);
  });

  it("skips no fire from before the job was first seen, and still delivers one in the window", async () => {
    // A fresh deployment at 11:00 in Berlin: today's 09:00 is within catch-up and runs;
    // yesterday's and older were before the job existed, not missed.
    const fresh = { now: at("2026-06-10T09:00:00Z"), firstSeenAt: at("2026-06-10T09:00:00Z") };
    expect(await plan(fresh)).toEqual({
      due: { at: "2026-06-10 09:00 GMT+02:00", key: "checkout.daily.2026-06-09" },
      skipped: [],
    });
    // Hourly, first seen at 11:30 local and planned at 14:30: 12:00 and 13:00 were missed
    // while it existed; 09:00 to 11:00 and the 08:00 outside the window were not.
    const hourly = await plan({
      schedule: "0 * * * *",
      keyForFire: perFireKey,
      now: at("2026-06-10T12:30:00Z"),
      firstSeenAt: at("2026-06-10T09:30:00Z"),
    });
    expect(hourly.skipped.map((s) => s.at.slice(11, 16))).toEqual(["13:00", "12:00"]);
  });

  it("resumes an undelivered slot whose fire was already started (a crash mid-slot)", async () => {
    // The predicate says "not delivered" for a slot left in 'sending': it is due again.
    const result = await plan({ now: at("2026-06-10T07:10:00Z") }, ["checkout.daily.2026-06-08"]);
    expect(result.due).toEqual({
      at: "2026-06-10 09:00 GMT+02:00",
      key: "checkout.daily.2026-06-09",
    });
  });
});

describe("planCatchUp on ticks", () => {
  it("a fire between the previous tick and now is due", async () => {
    const result = await plan({
      lastCheckedAt: at("2026-06-10T06:59:50Z"),
      now: at("2026-06-10T07:00:05Z"),
    });
    expect(result).toEqual({
      due: { at: "2026-06-10 09:00 GMT+02:00", key: "checkout.daily.2026-06-09" },
      skipped: [],
    });
  });

  it("a fire already decided on is not started again while its retries are pending", async () => {
    const result = await plan({
      lastCheckedAt: at("2026-06-10T07:00:05Z"),
      now: at("2026-06-10T07:00:15Z"),
    });
    expect(result).toEqual({ due: null, skipped: [] });
  });

  it("a tick seconds late is on time even with a zero catch-up window", async () => {
    const result = await plan({
      catchUpMs: 0,
      lastCheckedAt: at("2026-06-10T06:59:50Z"),
      now: at("2026-06-10T07:00:20Z"),
    });
    expect(result.due?.key).toBe("checkout.daily.2026-06-09");
  });

  it("after the machine slept past the window, skips the fires it missed", async () => {
    const result = await plan({
      lastCheckedAt: at("2026-06-08T12:00:00Z"),
      now: at("2026-06-10T15:00:00Z"),
    });
    expect(result).toEqual({
      due: null,
      skipped: [
        {
          at: "2026-06-10 09:00 GMT+02:00",
          key: "checkout.daily.2026-06-09",
          reason: "outside-window",
        },
      ],
    });
  });

  it("two fires for one period are one slot: the second finds it delivered", async () => {
    const twice = { schedule: "0 9,10 * * *" };
    const first = await plan({
      ...twice,
      lastCheckedAt: at("2026-06-10T06:59:55Z"),
      now: at("2026-06-10T07:00:01Z"),
    });
    expect(first.due?.key).toBe("checkout.daily.2026-06-09");
    const second = await plan(
      { ...twice, lastCheckedAt: at("2026-06-10T07:59:55Z"), now: at("2026-06-10T08:00:01Z") },
      ["checkout.daily.2026-06-09"],
    );
    expect(second).toEqual({ due: null, skipped: [] });
  });

  it("at start-up, several fires of one undelivered period are one due slot, not skipped ones", async () => {
    const result = await plan({ schedule: "0 9,10 * * *", now: at("2026-06-10T08:30:00Z") }, [
      "checkout.daily.2026-06-08",
    ]);
    expect(result).toEqual({
      due: { at: "2026-06-10 10:00 GMT+02:00", key: "checkout.daily.2026-06-09" },
      skipped: [],
    });
  });

  it("a gap fire is due at the gap's end", async () => {
    const result = await plan({
      schedule: "30 2 * * *",
      lastCheckedAt: at("2026-03-29T00:59:58Z"),
      now: at("2026-03-29T01:00:03Z"),
    });
    expect(result.due?.at).toBe("2026-03-29 03:00 GMT+02:00");
  });
});

describe("planCatchUp over a simulated daemon", () => {
  it("delivers each slot at most once and never more than one per tick", async () => {
    await fc.assert(
      fc.asyncProperty(
        // Gaps between ticks: mostly seconds, sometimes hours of downtime (a restart).
        fc.array(
          fc.oneof(
            fc.integer({ min: 1_000, max: 60_000 }),
            fc.integer({ min: HOUR, max: 30 * HOUR }),
          ),
          {
            minLength: 5,
            maxLength: 60,
          },
        ),
        fc.array(fc.boolean(), { minLength: 60, maxLength: 60 }),
        async (gaps, restarts) => {
          const delivered = new Set<string>();
          const deliveries: string[] = [];
          let now = at("2026-03-27T00:00:00Z").getTime();
          let lastCheckedAt: Date | null = null;
          for (const [i, gap] of gaps.entries()) {
            now += gap;
            if (restarts[i]) lastCheckedAt = null;
            const result = await planCatchUp({
              schedule: "0 */4 * * *",
              zone: ZONE,
              catchUpMs: 6 * HOUR,
              now: new Date(now),
              lastCheckedAt,
              firstSeenAt: LONG_AGO,
              keyForFire: perFireKey,
              isDelivered: (key) => delivered.has(key),
            });
            lastCheckedAt = new Date(now);
            if (result.due) {
              expect(now - result.due.fire.getTime()).toBeLessThanOrEqual(6 * HOUR);
              delivered.add(result.due.key);
              deliveries.push(result.due.key);
            }
          }
          expect(new Set(deliveries).size).toBe(deliveries.length);
        },
      ),
      { numRuns: 30 },
    );
  });

  it("a daemon ticking every 45 s delivers every fire on time", async () => {
    const delivered = new Set<string>();
    const start = at("2026-10-24T12:00:00Z").getTime();
    const end = start + 24 * HOUR;
    let lastCheckedAt: Date | null = null;
    for (let now = start; now <= end; now += 45_000) {
      const result = await planCatchUp({
        schedule: "*/30 * * * *",
        zone: ZONE,
        catchUpMs: 0,
        now: new Date(now),
        lastCheckedAt,
        firstSeenAt: LONG_AGO,
        keyForFire: perFireKey,
        isDelivered: (key) => delivered.has(key),
      });
      lastCheckedAt = new Date(now);
      if (result.due) delivered.add(result.due.key);
    }
    // 14:00 CEST to 13:00 CET: 23 wall-clock hours of half-hours in 24 real ones, because
    // Berlin's repeated hour fires once.
    const expected = nextFires("*/30 * * * *", ZONE, new Date(start - 1), 100).filter(
      (fire) => fire.getTime() <= end,
    );
    expect(expected.length).toBe(47);
    expect([...delivered].sort()).toEqual(expected.map(perFireKey).sort());
  });
});

describe("planCatchUp's cost", () => {
  /** How many fires the planner asked the key of, for one start-up plan. */
  async function keysAsked(schedule: string, keyForFire: (fire: Date) => string): Promise<number> {
    let asked = 0;
    await planCatchUp({
      schedule,
      zone: ZONE,
      catchUpMs: 6 * HOUR,
      now: at("2026-06-10T12:30:00Z"),
      lastCheckedAt: null,
      firstSeenAt: LONG_AGO,
      keyForFire: (fire) => {
        asked += 1;
        return keyForFire(fire);
      },
      isDelivered: () => false,
    });
    return asked;
  }

  it("does not walk every fire of an every-minute job: it costs what a daily job costs", async () => {
    // 360 fires in the 6 h window, all of one slot (the previous day).
    const minutely = await keysAsked("* * * * *", dailyKey);
    const daily = await keysAsked("0 9 * * *", dailyKey);
    expect(minutely).toBeLessThanOrEqual(daily + 12);
    expect(minutely).toBeLessThan(30);
  });

  it("still names every earlier slot in the window when each fire is its own slot", async () => {
    expect(await keysAsked("0 * * * *", perFireKey)).toBeLessThan(100);
  });
});
