import { describe, expect, it } from "vitest";
import type { AlertConfig, Team } from "../../src/config/types.js";
import { listJobs, type ScheduledJob } from "../../src/scheduler/jobs.js";
import { rangesOf, settledDaysAhead, spansOfFire } from "../../src/scheduler/prefetch-plan.js";
import { aDigest, aTeam } from "./daemon-harness.js";

// Which days a fire will ask for, and which of them can be fetched now: pure, from the fire
// instant, the zone and the clock.

const H48 = 48 * 3_600_000;
/** Monday 30 November 2026, 09:00 in Berlin. */
const FIRE = new Date("2026-11-30T08:00:00Z");

function jobOf(team: Team, index = 0): ScheduledJob {
  const job = listJobs([team])[index];
  if (!job) throw new Error("no job");
  return job;
}

const dailyAlert = (against: AlertConfig["against"]) =>
  ({
    name: "flaky",
    schedule: "0 9 * * *",
    window: "previous_day",
    catchUpMs: 0,
    against,
  }) as AlertConfig;

describe("the spans a fire asks for", () => {
  it.each([
    [
      "a daily digest: the day and the one before",
      aTeam({ digests: [aDigest()] }),
      [
        { start: "2026-11-29", end: "2026-11-29" },
        { start: "2026-11-28", end: "2026-11-28" },
      ],
    ],
    [
      "a weekly digest with 8-week charts: the week, the one before, and the chart window",
      aTeam({
        digests: [
          aDigest({ period: "previous_week", schedule: "0 9 * * 1", charts: { windowDays: 56 } }),
        ],
      }),
      [
        { start: "2026-11-23", end: "2026-11-29" },
        { start: "2026-11-16", end: "2026-11-22" },
        { start: "2026-10-05", end: "2026-11-29" },
      ],
    ],
    [
      "a daily digest against the median of 4 weeks: the 4 same weekdays",
      aTeam({ digests: [aDigest({ compareTo: "median_of_4_weeks" })] }),
      [
        { start: "2026-11-29", end: "2026-11-29" },
        { start: "2026-11-22", end: "2026-11-22" },
        { start: "2026-11-15", end: "2026-11-15" },
        { start: "2026-11-08", end: "2026-11-08" },
        { start: "2026-11-01", end: "2026-11-01" },
      ],
    ],
    [
      "a daily alert against its normal: its trend week, the day before, and the 4 same weekdays",
      aTeam({ digests: [], alerts: [dailyAlert({ baseline: "median_of_4_weeks", by: "points" })] }),
      [
        { start: "2026-11-23", end: "2026-11-29" },
        { start: "2026-11-28", end: "2026-11-28" },
        { start: "2026-11-22", end: "2026-11-22" },
        { start: "2026-11-15", end: "2026-11-15" },
        { start: "2026-11-08", end: "2026-11-08" },
        { start: "2026-11-01", end: "2026-11-01" },
      ],
    ],
  ])("%s", (_name, team, spans) => {
    expect(spansOfFire(jobOf(team), FIRE)).toEqual(spans);
  });
});

describe("the days that can be fetched now for a later fire", () => {
  const spans = [{ start: "2026-11-20", end: "2026-11-29" }];

  it("are those before today's recent window: settled now, and asked by the fire only if missing", () => {
    // Sunday 19:00 in Berlin: the recent window is Nov 25 – 29.
    const now = Date.parse("2026-11-29T18:00:00Z");
    expect(
      settledDaysAhead({ spans, timezone: "Europe/Berlin", nowMs: now, settleAfterMs: H48 }),
    ).toEqual(["2026-11-20", "2026-11-21", "2026-11-22", "2026-11-23", "2026-11-24"]);
  });

  it("take in one more day once the fire's own day has begun", () => {
    const now = Date.parse("2026-11-29T23:30:00Z"); // Monday 00:30 in Berlin
    expect(
      settledDaysAhead({ spans, timezone: "Europe/Berlin", nowMs: now, settleAfterMs: H48 }).at(-1),
    ).toBe("2026-11-25");
  });

  it("leave out the days the API no longer serves, and keep the first one it does", () => {
    // 2026-11-29 in Berlin: the API serves from 08-29 on.
    const now = Date.parse("2026-11-29T18:00:00Z");
    const old = [{ start: "2026-08-01", end: "2026-09-02" }];
    expect(
      settledDaysAhead({ spans: old, timezone: "Europe/Berlin", nowMs: now, settleAfterMs: H48 }),
    ).toEqual(["2026-08-29", "2026-08-30", "2026-08-31", "2026-09-01", "2026-09-02"]);
  });
});

describe("runs of days", () => {
  it("break at a gap and at the longest request", () => {
    const dates = ["2026-11-01", "2026-11-02", "2026-11-03", "2026-11-05", "2026-11-06"];
    expect(rangesOf(dates, 2)).toEqual([
      { start: "2026-11-01", end: "2026-11-02" },
      { start: "2026-11-03", end: "2026-11-03" },
      { start: "2026-11-05", end: "2026-11-06" },
    ]);
  });
});
