import { describe, expect, it } from "vitest";
import type { AlertConfig, DigestConfig, Team } from "../../src/config/types.js";
import { keyForFire, listJobs, metricLabels } from "../../src/scheduler/jobs.js";

const digest = {
  name: "daily",
  schedule: "0 9 * * *",
  period: "previous_day",
  compareTo: "previous_period",
  catchUpMs: 0,
  slack: null,
  email: null,
} as DigestConfig;
const alert = {
  name: "daily",
  schedule: "0 9 * * *",
  window: "previous_day",
  catchUpMs: 0,
} as AlertConfig;
const team = {
  name: "checkout",
  timezone: "Europe/Berlin",
  weekStartsOn: 1,
  digests: [digest],
  alerts: [alert],
} as unknown as Team;

describe("an alert and a digest of one team with one name", () => {
  it("are two jobs with their own ids, slot keys and metric series", () => {
    const jobs = listJobs([team]);
    expect(jobs.map((j) => [j.id, j.kind])).toEqual([
      ["checkout/digest/daily", "digest"],
      ["checkout/alert/daily", "alert"],
    ]);
    const fire = new Date("2026-11-16T08:00:00Z");
    expect(jobs.map((j) => keyForFire(j, fire))).toEqual([
      "checkout.daily.2026-11-15",
      "checkout.alert.daily.2026-11-15",
    ]);
    // One label scheme for both: the same name, told apart by kind.
    expect(jobs.map((j) => metricLabels(j.team.name, j.kind, j.name))).toEqual([
      { team: "checkout", kind: "digest", job: "daily" },
      { team: "checkout", kind: "alert", job: "daily" },
    ]);
  });
});
