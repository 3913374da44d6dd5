import { describe, expect, it } from "vitest";
import type { WindowCounts } from "../../src/alerts/types.js";
import { counts, rule, runSequence } from "./alert-builders.js";

// The creep metrics: a suite that slowly gets slower, skips more, or times out more. Each is
// bad when high and can be alerted on like the rates.

/** 20 runs whose mean lasts `minutes`. */
const lasting = (minutes: number): WindowCounts => ({
  ...counts(0),
  runDurationMs: 20 * minutes * 60_000,
  timedRuns: 20,
});

/** 1,000 results of which `percent`% were skipped. */
const skipping = (percent: number): WindowCounts => ({ ...counts(0), testsSkipped: percent * 10 });

/** 1,000 results of which `percent`% timed out. */
const timingOut = (percent: number): WindowCounts => ({
  ...counts(0),
  testsTimedOut: percent * 10,
});

describe("creep metrics", () => {
  it("mean_run_duration compares the run-weighted mean in minutes", () => {
    const slow = rule({ metric: "mean_run_duration", warnAt: 15, criticalAt: 20, clearAt: 14 });
    const result = runSequence(slow, [lasting(12), lasting(16), lasting(21), lasting(13)]);
    expect(result.states).toEqual(["ok", "warn", "critical", "ok"]);
    expect(result.sent).toEqual(["-", "fired", "escalated", "resolved"]);
  });

  it("mean_run_duration without timed runs has no verdict", () => {
    const slow = rule({ metric: "mean_run_duration", warnAt: 15, criticalAt: 20, clearAt: 14 });
    const untimed = { ...counts(0), runDurationMs: 0, timedRuns: 0 };
    expect(runSequence(slow, [untimed]).states).toEqual(["no_data"]);
  });

  it("skipped_share is the percent of test results skipped", () => {
    const skips = rule({ metric: "skipped_share", warnAt: 10, criticalAt: 20, clearAt: 8 });
    expect(runSequence(skips, [skipping(5), skipping(12), skipping(25), skipping(7)]).sent).toEqual(
      ["-", "fired", "escalated", "resolved"],
    );
  });

  it("timed_out_share is the percent of test results that timed out", () => {
    const timeouts = rule({ metric: "timed_out_share", warnAt: 2, criticalAt: 4, clearAt: 1 });
    expect(runSequence(timeouts, [timingOut(0), timingOut(3), timingOut(0)]).sent).toEqual([
      "-",
      "fired",
      "resolved",
    ]);
  });

  it("the shares are rates: min_tests holds back a verdict on a thin window", () => {
    const skips = rule({ metric: "skipped_share", warnAt: 10, criticalAt: 20, clearAt: 8 });
    expect(runSequence(skips, [{ ...counts(0, 50), testsSkipped: 25 }]).states).toEqual([
      "no_data",
    ]);
  });
});
