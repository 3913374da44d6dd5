import { describe, expect, it } from "vitest";
import { digestFireAt } from "../../src/commands/digest-fire-at.js";
import type { DigestConfig, Team } from "../../src/config/types.js";
import { addDays, datesIn } from "../../src/periods/calendar-date.js";
import type { Period } from "../../src/periods/types.js";
import { describeDigestFire, digestSlot } from "../../src/pipeline/digest/digest-slot.js";
import { firesBetween } from "../../src/timetable/cron-fires.js";

/**
 * A command's digest is the slot of the latest scheduled fire at or before --at (default now):
 * the slot the daemon delivers, with its key, so a schedule plus any number of `run`s reports
 * every day once. Weeks of Nov 23 and Nov 30, 2026 in Berlin; Nov 28 is a Saturday.
 */

const team: Team = {
  name: "web",
  title: "Web",
  timezone: "Europe/Berlin",
  weekStartsOn: 1,
  dashboardUrl: null,
  projects: [{ id: "pdqmxlz", name: null, branch: null, author: null, tags: [], owners: [] }],
  digests: [],
  alerts: [],
  alertActors: null,
};

function weekdayDigest(overrides: Partial<DigestConfig> = {}): DigestConfig {
  return {
    name: "daily",
    schedule: "0 9 * * 1-5",
    period: "since_previous_run",
    compareTo: "previous_period",
    catchUpMs: 6 * 3_600_000,
    minChangePp: 0.5,
    charts: null,
    slack: { channel: "C0123ABCD", attachXlsx: false },
    email: null,
    msteams: null,
    webhook: null,
    pagerduty: null,
    ...overrides,
  };
}

const SATURDAY_NOON = new Date("2026-11-28T11:00:00Z");

/** The distinct slots' periods, in order of their first day. */
function slotPeriods(digest: DigestConfig, fires: readonly Date[]): Map<string, Period> {
  const slots = new Map<string, Period>();
  for (const fireAt of fires) {
    const { key, periods } = digestSlot({ team, digest, fireAt });
    slots.set(key, periods.current);
  }
  return slots;
}

describe("a command's fire", () => {
  it("on a Saturday, a weekday since_previous_run digest's run is Friday's slot, and the week's fires report no day twice and skip none", () => {
    const digest = weekdayDigest();
    const now = new Date("2026-12-05T12:00:00Z");
    const run = digestFireAt(undefined, team, digest, SATURDAY_NOON);
    const scheduled = firesBetween(
      digest.schedule,
      team.timezone,
      new Date("2026-11-22T00:00:00Z"),
      new Date("2026-12-04T23:00:00Z"),
    );
    const slots = slotPeriods(digest, [
      ...scheduled,
      run,
      digestFireAt("2026-11-29", team, digest, now),
    ]);
    const periods = [...slots.values()].sort((a, b) => a.start.localeCompare(b.start));
    // Each period starts the day after the one before ends: a tiling, no overlap, no gap.
    for (let i = 1; i < periods.length; i += 1) {
      expect(periods[i]?.start, JSON.stringify(periods)).toBe(
        addDays(periods[i - 1]?.end ?? "", 1),
      );
    }
    const days = periods.flatMap((p) => datesIn(p));
    expect(new Set(days).size).toBe(days.length);
    expect(days[0]).toBe("2026-11-20"); // Monday the 23rd covers Fri 20 – Sun 22
    expect(days.at(-1)).toBe("2026-12-03");
    expect(digestSlot({ team, digest, fireAt: run }).key).toBe("web.daily.2026-11-26");
  });

  it("is the latest fire at or before the instant given, or now", () => {
    const digest = weekdayDigest({ period: "previous_day" });
    expect(digestFireAt(undefined, team, digest, SATURDAY_NOON).toISOString()).toBe(
      "2026-11-27T08:00:00.000Z",
    );
    // 08:59 on Friday: Thursday's fire, not Friday's, which has not happened yet.
    const beforeFire = new Date("2026-11-27T07:59:00Z");
    expect(digestFireAt(beforeFire, team, digest, SATURDAY_NOON).toISOString()).toBe(
      "2026-11-26T08:00:00.000Z",
    );
  });

  it("reads a date as that day's fire, or, on a day with none, the latest fire before it", () => {
    const digest = weekdayDigest();
    const now = new Date("2026-12-05T12:00:00Z");
    expect(digestFireAt("2026-11-26", team, digest, now).toISOString()).toBe(
      "2026-11-26T08:00:00.000Z",
    );
    for (const weekend of ["2026-11-28", "2026-11-29"]) {
      expect(digestFireAt(weekend, team, digest, now).toISOString()).toBe(
        "2026-11-27T08:00:00.000Z",
      );
    }
  });

  it("names the fire and the days it covers", () => {
    const digest = weekdayDigest();
    const friday = digestFireAt("2026-11-28", team, digest, SATURDAY_NOON);
    expect(describeDigestFire({ team, digest, fireAt: friday })).toBe(
      "the fire of Fri Nov 27 09:00 CET, covering Thu Nov 26",
    );
    const monday = new Date("2026-11-30T08:00:00Z");
    expect(describeDigestFire({ team, digest, fireAt: monday })).toBe(
      "the fire of Mon Nov 30 09:00 CET, covering Fri Nov 27 \u2013 Sun Nov 29",
    );
  });

  it("refuses a schedule with no fire in the year before --at, naming the schedule", () => {
    const digest = weekdayDigest({ schedule: "0 9 1 1 *" });
    expect(() =>
      digestFireAt(new Date("2026-06-01T00:00:00Z"), team, digest, SATURDAY_NOON),
    ).not.toThrow();
    expect(() =>
      digestFireAt(
        new Date("2026-06-01T00:00:00Z"),
        team,
        weekdayDigest({ schedule: "0 9 29 2 *" }),
        SATURDAY_NOON,
      ),
    ).toThrow(/"0 9 29 2 \*" has no fire in the year before --at 2026-06-01/);
  });
});
