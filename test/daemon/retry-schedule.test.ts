import { describe, expect, it } from "vitest";
import type { DigestConfig } from "../../src/config/types.js";
import { keyForFire, listJobs, type ScheduledJob } from "../../src/scheduler/jobs.js";
import { slotDeadline, slotRetryAt } from "../../src/scheduler/retry-schedule.js";
import { firesBetween } from "../../src/timetable/cron-fires.js";
import { MAX_RETRY_SPAN_MS, nextAttemptAt } from "../../src/timetable/retry-delays.js";
import { aDigest, aTeam } from "./daemon-harness.js";

const MINUTE = 60_000;
const failedAt = new Date("2026-06-10T07:00:00Z");
const farAway = new Date("2026-06-20T00:00:00Z");

describe("nextAttemptAt", () => {
  it.each([
    [1, 1],
    [2, 5],
    [3, 15],
    [4, 60],
    [5, 60],
    [30, 60],
  ])("after %i failed attempts waits %i minutes", (attempts, minutes) => {
    expect(nextAttemptAt(attempts, failedAt, farAway)?.getTime()).toBe(
      failedAt.getTime() + minutes * MINUTE,
    );
  });

  it("gives up when the next attempt would fall at or after the deadline", () => {
    const deadline = new Date(failedAt.getTime() + 15 * MINUTE);
    expect(nextAttemptAt(2, failedAt, deadline)).toEqual(new Date(failedAt.getTime() + 5 * MINUTE));
    expect(nextAttemptAt(3, failedAt, deadline)).toBeNull();
  });

  it("waits until a floor later than its delay, and gives up when the floor is at or past the deadline", () => {
    const deadline = new Date(failedAt.getTime() + 15 * MINUTE);
    const floor = (minutes: number) => new Date(failedAt.getTime() + minutes * MINUTE);
    expect(nextAttemptAt(1, failedAt, deadline, undefined, floor(10))).toEqual(floor(10));
    expect(nextAttemptAt(2, failedAt, deadline, undefined, floor(3))).toEqual(floor(5));
    expect(nextAttemptAt(1, failedAt, deadline, undefined, floor(15))).toBeNull();
    expect(nextAttemptAt(1, failedAt, deadline, undefined, floor(20))).toBeNull();
  });

  it("follows a schedule given to it, repeating its last wait", () => {
    expect(nextAttemptAt(3, failedAt, farAway, [200, 500])?.getTime()).toBe(
      failedAt.getTime() + 500,
    );
  });
});

describe("slotDeadline", () => {
  const deadline = (schedule: string, period = aDigest().period) => {
    const [job] = listJobs([aTeam({ digests: [aDigest({ schedule, period })] })]);
    if (!job) throw new Error("no job");
    return slotDeadline(job, failedAt).toISOString();
  };

  it("is the next fire that starts another slot", () => {
    // Weekdays at 09:00 Berlin: Wednesday's slot lasts until Thursday's fire.
    expect(deadline("0 9 * * 1-5")).toBe("2026-06-11T07:00:00.000Z");
  });

  it("skips later fires of the same slot: every 5 minutes of a daily digest is one slot", () => {
    expect(deadline("*/5 * * * *")).toBe("2026-06-10T22:00:00.000Z"); // midnight in Berlin
  });

  it("is at most 24 h after the fire", () => {
    expect(deadline("0 9 * * 1", "previous_week")).toBe("2026-06-11T07:00:00.000Z");
  });

  /** The deadline by its definition: every later fire within 24 h, until one names another slot. */
  const byEveryFire = (job: ScheduledJob, fire: Date) => {
    const limit = new Date(fire.getTime() + MAX_RETRY_SPAN_MS);
    const key = keyForFire(job, fire);
    return (
      firesBetween(job.schedule, job.zone, fire, limit).find((f) => keyForFire(job, f) !== key) ??
      limit
    );
  };

  it.each([
    // Schedules × periods × fires near local midnight, a week's end, and both DST changes.
    ...["*/20 * * * *", "0 9 * * 1-5", "30 2 * * *", "15 0,23 * * *", "0 0 * * 1"].flatMap(
      (schedule) =>
        (["previous_day", "previous_week", "since_previous_run"] as const).flatMap((period) =>
          [
            "2026-06-10T07:00:00Z",
            "2026-06-14T21:50:00Z", // Sunday 23:50 in Berlin
            "2026-03-28T23:30:00Z", // the night clocks go forward in Berlin
            "2026-10-24T22:15:00Z", // the night they go back
          ].map((at) => [schedule, period, at] as const),
        ),
    ),
  ])(
    "for %s and %s, fired at %s, is the first later fire of another slot",
    (schedule, period, at) => {
      const [job] = listJobs([aTeam({ digests: [aDigest({ schedule, period })] })]);
      if (!job) throw new Error("no job");
      expect(slotDeadline(job, new Date(at))).toEqual(byEveryFire(job, new Date(at)));
    },
  );

  it("looks at the first fire of each later day, not at every fire of an every-minute schedule", () => {
    let periods = 0;
    const digest = aDigest({ schedule: "* * * * *", period: "previous_week" });
    const counted: DigestConfig = Object.defineProperty({ ...digest }, "period", {
      get: () => {
        periods++;
        return digest.period;
      },
    });
    const [job] = listJobs([aTeam({ digests: [counted] })]);
    if (!job) throw new Error("no job");
    expect(slotDeadline(job, failedAt)).toEqual(new Date(failedAt.getTime() + MAX_RETRY_SPAN_MS));
    // A period or two per day looked at (each read of the digest's period is one), not 1,440.
    expect(periods).toBeLessThan(10);
  });
});

describe("slotRetryAt", () => {
  // Weekdays at 09:00 Berlin, fired on Wednesday: the slot's deadline is Thursday's fire.
  const [job] = listJobs([aTeam({ digests: [aDigest({ schedule: "0 9 * * 1-5" })] })]);
  const deadline = new Date("2026-06-11T07:00:00Z");
  const retryAt = (now: Date) => {
    const scheduled: Date[] = [];
    if (!job) throw new Error("no job");
    const at = slotRetryAt(job, failedAt, {
      clock: () => now,
      delaysMs: [MINUTE],
      onScheduled: (a) => scheduled.push(a),
    });
    return { at, scheduled };
  };

  it("retries after the delay, or at the floor a sender asks for, and wakes the scheduler for it", () => {
    const { at, scheduled } = retryAt(failedAt);
    expect(at(1)).toEqual(new Date(failedAt.getTime() + MINUTE));
    const floor = new Date(failedAt.getTime() + 5 * MINUTE);
    expect(at(1, floor)).toEqual(floor);
    expect(scheduled).toEqual([new Date(failedAt.getTime() + MINUTE), floor]);
  });

  it("never sets a retry at or past the slot's deadline, however late a sender's floor: it gives up", () => {
    // A send abandoned at send_timeout shortly before the deadline asks to look only after it.
    const now = new Date(deadline.getTime() - 3 * MINUTE);
    const { at, scheduled } = retryAt(now);
    expect(at(2, new Date(deadline.getTime() + 2 * MINUTE))).toBeNull();
    expect(at(2, deadline)).toBeNull();
    expect(scheduled).toEqual([]);
    // Without the floor, the usual delay still fits before the deadline.
    expect(at(2)).toEqual(new Date(now.getTime() + MINUTE));
  });
});
