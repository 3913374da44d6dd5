import { describe, expect, it } from "vitest";
import { listJobs } from "../../src/daemon/jobs.js";
import { slotDeadline } from "../../src/daemon/retry-schedule.js";
import { nextAttemptAt } from "../../src/schedule/retry-delays.js";
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
});
