import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LedgerLockedError } from "../../src/errors.js";
import { STALE_AFTER_MS } from "../../src/state/sqlite/daemon-lease.js";
import {
  aSlot,
  deadPid,
  exited,
  manualClock,
  startUntil,
  useTempLedgers,
} from "./ledger-builders.js";

const SECOND = 1_000;

describe("the daemon lease", () => {
  const ledgers = useTempLedgers();
  const path = () => join(ledgers.dir(), "ledger.db");

  it("refuses a second daemon while the first is alive, saying who holds it and how to fix it", async () => {
    const clock = manualClock("2026-11-16T08:00:00.000Z");
    // Another process on this host that is alive: our parent.
    const first = ledgers.open(path(), { now: clock.now, identity: { pid: process.ppid } });
    await first.acquireDaemonLease("insights-reporter start");
    clock.advance(30 * SECOND);
    const second = ledgers.open(path(), { now: clock.now });

    let thrown: unknown;
    try {
      await second.acquireDaemonLease("insights-reporter start");
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(LedgerLockedError);
    expect((thrown as LedgerLockedError).exitCode).toBe(2);
    expect((thrown as Error).message).toBe(
      `the ledger ${path()} is in use by another daemon: insights-reporter start (pid ${process.ppid} on ${hostname()}), since 2026-11-16T08:00:00.000Z (last seen 2026-11-16T08:00:00.000Z) — stop the other daemon, or point state.path elsewhere (a daemon that was killed frees it 2 minutes after it was last seen)`,
    );
  });

  it("lets one-off commands use the ledger while a daemon holds it", async () => {
    const daemon = ledgers.open(path());
    await daemon.acquireDaemonLease("daemon");
    await daemon.recordSlot(aSlot());
    const cli = ledgers.open(path());
    expect((await cli.history({ limit: 5 })).map((s) => s.key)).toEqual([
      "checkout.daily.2026-11-15",
    ]);
    await cli.recordSlot(aSlot({ key: "checkout.daily.2026-11-16" }));
    expect(await daemon.getSlot("checkout.daily.2026-11-16")).not.toBeNull();
  });

  it("stays held while renewed, and goes stale 2 minutes after the last renewal", async () => {
    const clock = manualClock();
    const first = ledgers.open(path(), { now: clock.now });
    const second = ledgers.open(path(), { now: clock.now });
    await first.acquireDaemonLease("first");
    clock.advance(STALE_AFTER_MS - SECOND);
    await first.renewLease();
    clock.advance(STALE_AFTER_MS - SECOND);
    await expect(second.acquireDaemonLease("second")).rejects.toThrow(LedgerLockedError);
    clock.advance(2 * SECOND);
    await second.acquireDaemonLease("second");
    // The first daemon, back from wherever it hung, learns it lost the ledger.
    await expect(first.renewLease()).rejects.toThrow(
      /lost the ledger .* second \(pid \d+ on .*\) took it over/,
    );
  });

  it("is taken over at once when the holder's pid is gone on this host (a SIGKILLed daemon)", async () => {
    const killed = ledgers.open(path(), { identity: { pid: deadPid() } });
    await killed.acquireDaemonLease("killed");
    const successor = ledgers.open(path());
    await successor.acquireDaemonLease("successor");
    await successor.renewLease();
  });

  it("is taken over at once when its holder had our pid before this process started (a restarted container's pid 1)", async () => {
    const clock = manualClock("2026-11-16T08:00:00.000Z");
    const before = ledgers.open(path(), { now: clock.now });
    await before.acquireDaemonLease("the container before the restart");
    clock.advance(30 * SECOND);
    const restarted = ledgers.open(path(), {
      now: clock.now,
      identity: { startedAt: new Date(clock.now().getTime() - 5 * SECOND) },
    });
    await restarted.acquireDaemonLease("the restarted container");
    await expect(before.renewLease()).rejects.toThrow(/lost the ledger/);
  });

  it("is not taken over early when the holder is on another host, whose pids mean nothing here", async () => {
    const clock = manualClock();
    const elsewhere = ledgers.open(path(), {
      now: clock.now,
      identity: { pid: deadPid(), hostname: "some-other-host" },
    });
    await elsewhere.acquireDaemonLease("elsewhere");
    const here = ledgers.open(path(), { now: clock.now });
    await expect(here.acquireDaemonLease("here")).rejects.toThrow(/pid \d+ on some-other-host/);
    clock.advance(STALE_AFTER_MS + SECOND);
    await here.acquireDaemonLease("here");
  });

  it("is free at once after a clean release", async () => {
    const first = ledgers.open(path());
    await first.acquireDaemonLease("first");
    await first.releaseLease();
    const second = ledgers.open(path());
    await second.acquireDaemonLease("second");
    await expect(first.acquireDaemonLease("first")).rejects.toThrow(LedgerLockedError);
  });

  it("can be acquired again by its holder", async () => {
    const ledger = ledgers.open(path());
    await ledger.acquireDaemonLease("daemon");
    await ledger.acquireDaemonLease("daemon");
    await ledger.renewLease();
  });

  it("renewing a lease never acquired is a programming error", async () => {
    await expect(ledgers.open(path()).renewLease()).rejects.toThrow(/before acquireDaemonLease/);
  });

  it("a real daemon process: refused while it runs, free the moment it is SIGKILLed", async () => {
    const file = path();
    await ledgers.open(file).close(); // create and migrate first, so the child only takes the lease
    const child = await startUntil(
      ["--import", "tsx", join(import.meta.dirname, "fixtures", "hold-lease.ts"), file],
      "holding",
    );
    const successor = ledgers.open(file);
    try {
      await expect(successor.acquireDaemonLease("successor")).rejects.toThrow(
        new RegExp(`pid ${child.pid} on ${hostname()}`),
      );
    } finally {
      child.kill("SIGKILL");
      await exited(child);
    }
    await successor.acquireDaemonLease("successor");
    await successor.renewLease();
  });
});
