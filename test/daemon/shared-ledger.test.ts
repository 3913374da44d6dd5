import { afterEach, describe, expect, it } from "vitest";
import { listJobs } from "../../src/scheduler/jobs.js";
import { createDaemon, type Daemon } from "../../src/scheduler/scheduler.js";
import type { Ledger } from "../../src/state/ledger.js";
import { aTeam, captureLogs, recordingRunner, useHarness } from "./daemon-harness.js";

/**
 * Replicas sharing one ledger (PostgreSQL) each plan every fire: the slot's run is claimed
 * first, so a fire is fetched, rendered and delivered by one of them. Here two daemons share
 * one SQLite ledger that says it is shared; a ledger of one daemon claims no run.
 */

const harness = useHarness();
const KEY = "checkout.daily.2026-06-09";
const FIRE = "2026-06-10T07:00:00Z"; // 09:00 in Berlin
const team = aTeam();
const others: Daemon[] = [];
afterEach(async () => {
  for (const other of others.splice(0)) await other.stop(0);
});

/** Counts the run claims taken through `ledger`. */
function counting(ledger: Ledger, shared: boolean) {
  const claims: string[] = [];
  const view: Ledger = {
    ...ledger,
    shared,
    claimSlotRun: (key, owner, expiryMs) => {
      claims.push(`${owner} ${key}`);
      return ledger.claimSlotRun(key, owner, expiryMs);
    },
  };
  return { view, claims };
}

describe("a ledger shared by replicas", () => {
  it("runs a fire once: the replica that finds its run claimed leaves it to the other", async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const a = await harness([team], { start: "2026-06-10T06:59:00Z" });
    const { view, claims } = counting(a.ledger, true);
    a.daemon.replaceJobs([]); // the harness's own daemon stands aside: two replicas on `view`
    const replica = (owner: string) => {
      const runner = recordingRunner(a.now, { gate: () => gate });
      const { lines, logger } = captureLogs();
      const daemon = createDaemon({
        jobs: listJobs([team]),
        ledger: view,
        runSlot: runner.runSlot,
        logger,
        now: a.now,
        owner,
      });
      others.push(daemon);
      return { daemon, runs: runner.runs, logs: lines };
    };
    const one = replica("replica one");
    const two = replica("replica two");

    await a.tickOnly(FIRE); // sets the clock (the harness's daemon has no job left)
    await one.daemon.tick(); // launches and claims the run, which waits at the gate
    await two.daemon.tick(); // plans the same fire, finds its run claimed
    await two.daemon.idle();
    expect(one.runs.map((r) => r.key)).toEqual([KEY]);
    expect(two.runs).toEqual([]);
    expect(two.logs).toContainEqual(
      expect.objectContaining({
        slot: KEY,
        msg: "another process is running this slot; left to it",
      }),
    );

    release();
    await one.daemon.idle();
    expect(await a.ledger.isSlotDelivered(KEY)).toBe(true);
    // The replica that stood aside looks again, finds the slot delivered, and runs nothing.
    await a.tickOnly("2026-06-10T07:00:05Z");
    await two.daemon.tick();
    await two.daemon.idle();
    expect(two.runs).toEqual([]);
    expect(claims).toEqual([`replica one ${KEY}`, `replica two ${KEY}`]);
  });
});

describe("a ledger of one daemon", () => {
  it("claims no run: the daemon runs the fire at once", async () => {
    const h = await harness([team], { start: "2026-06-10T06:59:00Z" });
    const { view, claims } = counting(h.ledger, false);
    h.daemon.replaceJobs([]);
    const runner = recordingRunner(h.now);
    const daemon = createDaemon({
      jobs: listJobs([team]),
      ledger: view,
      runSlot: runner.runSlot,
      logger: captureLogs().logger,
      now: h.now,
    });
    others.push(daemon);
    await h.tickOnly(FIRE); // sets the clock (the harness's daemon has no job left)
    await daemon.tick();
    await daemon.idle();
    expect(runner.runs.map((r) => r.key)).toEqual([KEY]);
    expect(await h.ledger.isSlotDelivered(KEY)).toBe(true);
    expect(claims).toEqual([]);
  });
});
