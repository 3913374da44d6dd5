import { describe, expect, it } from "vitest";
import type { RetryAt } from "../../src/deliver/deliver-all.js";
import { listJobs } from "../../src/scheduler/jobs.js";
import { slotRetryAt } from "../../src/scheduler/retry-schedule.js";
import { DEFAULT_RETRY_DELAYS_MS, firstRetryAt } from "../../src/timetable/retry-delays.js";
import { aDigest, aTeam } from "../daemon/daemon-harness.js";

// RetryAt's contract, which deliverAll relies on and does not re-check: a retry is never due
// before the sender's `notBefore` (a send that may have landed is looked for only once
// send_timeout has passed). Every schedule a caller hands deliverAll keeps it.

const MINUTE = 60_000;
const failedAt = new Date("2026-06-10T07:00:00Z");
const at = (minutes: number) => new Date(failedAt.getTime() + minutes * MINUTE);

const [job] = listJobs([aTeam({ digests: [aDigest({ schedule: "0 9 * * 1-5" })] })]);
if (!job) throw new Error("no job");

const schedules: [string, RetryAt][] = [
  [
    "the daemon's slot runs (slotRetryAt)",
    slotRetryAt(job, failedAt, { clock: () => failedAt, delaysMs: DEFAULT_RETRY_DELAYS_MS }),
  ],
  ["run, alerts and /insights digests (firstRetryAt)", firstRetryAt(() => failedAt)],
];

describe("every retry schedule honours notBefore", () => {
  it.each(schedules)("%s: a retry due before notBefore starts at notBefore", (_, retryAt) => {
    expect(retryAt(1, at(10))).toEqual(at(10));
  });

  it.each(schedules)("%s: a notBefore already passed leaves the delay", (_, retryAt) => {
    expect(retryAt(1)).toEqual(at(1));
    expect(retryAt(1, at(0))).toEqual(at(1));
  });
});
