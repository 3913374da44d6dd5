import { expect, it } from "vitest";
import { listJobs } from "../../src/scheduler/jobs.js";
import { createDaemon } from "../../src/scheduler/scheduler.js";
import type { Ledger } from "../../src/state/ledger.js";
import { aTeam, captureLogs, recordingRunner, useHarness } from "./daemon-harness.js";

/**
 * A ledger that answers over the network (PostgreSQL) keeps a tick waiting mid-plan. stop()
 * that finds nothing in flight returns at once, and the service then lets the ledger and the
 * clients go: the tick must not start what it planned after that.
 */

const harness = useHarness();

it("starts no run once stopped, though its tick was waiting on the ledger", async () => {
  const team = aTeam();
  const h = await harness([team], { start: "2026-06-10T06:59:00Z" });
  h.daemon.replaceJobs([]); // the harness's daemon stands aside for the one on `slow`
  let asked = () => {};
  const planning = new Promise<void>((resolve) => {
    asked = resolve;
  });
  const slow: Ledger = {
    ...h.ledger,
    isSlotDelivered: async (key) => {
      asked();
      await new Promise((resolve) => setTimeout(resolve, 20));
      return h.ledger.isSlotDelivered(key);
    },
  };
  const runner = recordingRunner(h.now);
  const daemon = createDaemon({
    jobs: listJobs([team]),
    ledger: slow,
    runSlot: runner.runSlot,
    logger: captureLogs().logger,
    now: h.now,
  });
  await h.tickOnly("2026-06-10T07:00:00Z"); // sets the clock: 09:00 in Berlin, the fire is due
  const tick = daemon.tick();
  await planning;
  expect(await daemon.stop(0)).toEqual([]); // nothing in flight yet
  await tick;
  await daemon.idle();
  expect(runner.runs).toEqual([]);
});
