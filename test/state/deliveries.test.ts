import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { claimingLedger } from "../../src/deliver/claiming-ledger.js";
import {
  type DeliveryJob,
  type DeliveryLedger,
  deliverAll,
} from "../../src/deliver/deliver-all.js";
import { silentLogger } from "../../src/logger.js";
import { beginAttempt } from "./begin-attempt.js";
import { aSlot, exited, manualClock, startUntil, useTempLedgers } from "./ledger-builders.js";

const KEY = "checkout.daily.2026-11-15";
const SLACK = "slack:C0123";
const EMAIL = "email:qa@example.com,b@example.com";
const MINUTE = 60_000;

describe("recording a slot", () => {
  const ledgers = useTempLedgers();

  it("is idempotent and leaves each destination pending", async () => {
    const clock = manualClock();
    const ledger = ledgers.open(undefined, clock);
    expect(await ledger.recordSlot(aSlot())).toBe(true);
    clock.advance(MINUTE);
    expect(await ledger.recordSlot(aSlot())).toBe(false);
    expect(await ledger.getSlot(KEY)).toEqual({
      key: KEY,
      team: "checkout",
      kind: "digest",
      job: "daily",
      fireAt: new Date("2026-11-16T08:00:00.000Z"),
      period: { start: "2026-11-15", end: "2026-11-15" },
      createdAt: new Date("2026-11-16T08:00:00.000Z"),
      finishedAt: null,
      deliveries: [EMAIL, SLACK].map((destination) => ({
        destination,
        state: "pending",
        attempts: 0,
        lastError: null,
        nextAttemptAt: null,
        ref: null,
        updatedAt: new Date("2026-11-16T08:00:00.000Z"),
        claim: 0,
        claimedBy: null,
        claimedAt: null,
      })),
    });
  });

  it("is not delivered while any destination is pending, and unknown slots are not delivered", async () => {
    const ledger = ledgers.open();
    expect(await ledger.isSlotDelivered(KEY)).toBe(false);
    await ledger.recordSlot(aSlot());
    expect(await ledger.isSlotDelivered(KEY)).toBe(false);
    expect(await ledger.getSlot("checkout.daily.2026-11-14")).toBeNull();
  });
});

describe("the delivery state machine", () => {
  const ledgers = useTempLedgers();

  it("pending → sending → sent, and a sent destination is never sent again", async () => {
    const clock = manualClock();
    const ledger = ledgers.open(undefined, clock);
    await ledger.recordSlot(aSlot());
    expect(await beginAttempt(ledger, KEY, SLACK)).toEqual({
      state: "pending",
      attempts: 0,
      ref: null,
    });
    await ledger.markSent(KEY, SLACK, { ref: "1763280000.000100" });
    expect(await beginAttempt(ledger, KEY, SLACK)).toEqual({
      state: "sent",
      attempts: 1,
      ref: "1763280000.000100",
    });
    const slack = (await ledger.getSlot(KEY))?.deliveries.find((d) => d.destination === SLACK);
    expect(slack).toMatchObject({ state: "sent", attempts: 1, ref: "1763280000.000100" });
  });

  it("failed with a next attempt → due at that time → retried → sent; the slot finishes then", async () => {
    const clock = manualClock();
    const ledger = ledgers.open(undefined, clock);
    await ledger.recordSlot(aSlot());
    await beginAttempt(ledger, KEY, SLACK);
    await ledger.markSent(KEY, SLACK, { ref: "1763280000.000100" });

    await beginAttempt(ledger, KEY, EMAIL);
    const retryAt = new Date(clock.now().getTime() + MINUTE);
    await ledger.markFailed(
      KEY,
      EMAIL,
      "could not reach the SMTP server at 127.0.0.1:2525 (ECONNREFUSED)",
      retryAt,
    );
    expect(await ledger.isSlotDelivered(KEY)).toBe(false);
    expect(await ledger.dueRetries(new Date(retryAt.getTime() - 1))).toEqual([]);

    const due = await ledger.dueRetries(retryAt);
    expect(due).toHaveLength(1);
    expect(due[0]).toMatchObject({
      slot: { key: KEY, team: "checkout", kind: "digest", job: "daily" },
      destination: EMAIL,
      attempts: 1,
      lastError: "could not reach the SMTP server at 127.0.0.1:2525 (ECONNREFUSED)",
      nextAttemptAt: retryAt,
    });

    clock.advance(MINUTE);
    expect(await beginAttempt(ledger, KEY, EMAIL)).toMatchObject({ state: "failed", attempts: 1 });
    expect(await ledger.dueRetries(retryAt)).toEqual([]); // sending now, not due
    await ledger.markSent(KEY, EMAIL, {
      ref: "<checkout.daily.2026-11-15@insights-reporter>",
    });
    expect(await ledger.isSlotDelivered(KEY)).toBe(true);
    const slot = await ledger.getSlot(KEY);
    expect(slot?.finishedAt).toEqual(clock.now());
    expect(slot?.deliveries.find((d) => d.destination === EMAIL)).toMatchObject({
      state: "sent",
      attempts: 2,
      ref: "<checkout.daily.2026-11-15@insights-reporter>",
      nextAttemptAt: null,
    });
  });

  it("a delivery given up (no next attempt) is final: the slot counts as delivered, nothing is due", async () => {
    const ledger = ledgers.open();
    await ledger.recordSlot(aSlot({ destinations: [SLACK] }));
    await beginAttempt(ledger, KEY, SLACK);
    await ledger.markFailed(KEY, SLACK, "channel_not_found", null);
    expect(await ledger.isSlotDelivered(KEY)).toBe(true);
    expect(await ledger.dueRetries(new Date("2100-01-01T00:00:00Z"))).toEqual([]);
    expect((await ledger.getSlot(KEY))?.deliveries[0]).toMatchObject({
      state: "failed",
      lastError: "channel_not_found",
    });
  });

  it("a failure reported after a send does not undo it", async () => {
    const ledger = ledgers.open();
    await ledger.recordSlot(aSlot({ destinations: [SLACK] }));
    await beginAttempt(ledger, KEY, SLACK);
    await ledger.markSent(KEY, SLACK, { ref: "1.2" });
    await ledger.markFailed(KEY, SLACK, "late timeout", new Date());
    expect((await ledger.getSlot(KEY))?.deliveries[0]).toMatchObject({
      state: "sent",
      lastError: null,
    });
    expect(await ledger.isSlotDelivered(KEY)).toBe(true);
  });

  it("stores an error's message, never its stack", async () => {
    const ledger = ledgers.open();
    await ledger.recordSlot(aSlot({ destinations: [SLACK] }));
    await beginAttempt(ledger, KEY, SLACK);
    const error = new Error("Slack said ratelimited");
    await ledger.markFailed(KEY, SLACK, String(error.stack), null);
    const stored = (await ledger.getSlot(KEY))?.deliveries[0]?.lastError;
    expect(stored).toBe("Error: Slack said ratelimited");
  });

  it("records a destination that was never recorded with its slot", async () => {
    const ledger = ledgers.open();
    await ledger.recordSlot(aSlot({ destinations: [] }));
    expect(await ledger.isSlotDelivered(KEY)).toBe(true); // nothing to deliver
    expect(await beginAttempt(ledger, KEY, SLACK)).toEqual({
      state: "new",
      attempts: 0,
      ref: null,
    });
    expect(await ledger.isSlotDelivered(KEY)).toBe(false);
    await ledger.markSent(KEY, SLACK, {});
    expect(await ledger.isSlotDelivered(KEY)).toBe(true);
  });
});

describe("a crash mid-send", () => {
  const ledgers = useTempLedgers();

  it("leaves the delivery in 'sending', which the next process sees as an interrupted attempt", async () => {
    const path = join(ledgers.dir(), "ledger.db");
    const before = ledgers.open(path);
    await before.recordSlot(aSlot());
    await beginAttempt(before, KEY, SLACK);
    await before.close(); // the process dies here: no markSent, no markFailed

    const after = ledgers.open(path);
    expect(await after.isSlotDelivered(KEY)).toBe(false);
    expect((await after.getSlot(KEY))?.deliveries.find((d) => d.destination === SLACK)?.state).toBe(
      "sending",
    );
    expect(await beginAttempt(after, KEY, SLACK)).toMatchObject({ state: "sending", attempts: 1 });
  });

  it("with deliverAll, the restart finds the earlier post instead of posting again", async () => {
    const path = join(ledgers.dir(), "ledger.db");
    const posts: string[] = [];
    const slack = (ts: string): DeliveryJob => ({
      id: SLACK,
      send: async () => {
        posts.push(ts);
        return { ref: ts };
      },
      recover: async () => (posts.length > 0 ? { ref: posts[0] } : null),
    });

    const crashed = ledgers.open(path);
    await crashed.recordSlot(aSlot({ destinations: [SLACK] }));
    await beginAttempt(crashed, KEY, SLACK);
    posts.push("1.1"); // the post went out, then the process died before recording it
    await crashed.close();

    const ledger: DeliveryLedger = claimingLedger(ledgers.open(path), {
      owner: "restarted",
      sendTimeoutMs: 0,
      take: "open",
    });
    const results = await deliverAll(KEY, [slack("2.2")], { ledger, logger: silentLogger() });
    expect(results.map((r) => r.status)).toEqual(["recovered"]);
    expect(posts).toEqual(["1.1"]);
    const again = await deliverAll(KEY, [slack("3.3")], { ledger, logger: silentLogger() });
    expect(again.map((r) => r.status)).toEqual(["already-sent"]);
    expect(posts).toEqual(["1.1"]);
  });
});

describe("two processes on one ledger", () => {
  const ledgers = useTempLedgers();

  it("a write waits for another process's transaction instead of failing", async () => {
    const path = join(ledgers.dir(), "ledger.db");
    const ledger = ledgers.open(path);
    await ledger.recordSlot(aSlot());
    const holder = await startUntil(
      [join(import.meta.dirname, "fixtures", "hold-write-lock.mjs"), path, "300"],
      "locked",
    );
    try {
      // Blocks in SQLite's busy handler until the other process commits, then goes ahead.
      expect(await beginAttempt(ledger, KEY, SLACK)).toMatchObject({ state: "pending" });
      expect((await ledger.getSlot("other.daily.2026-11-15"))?.team).toBe("other");
    } finally {
      await exited(holder);
    }
    expect(holder.exitCode).toBe(0);
  });
});

describe("claiming a destination for sending", () => {
  const ledgers = useTempLedgers();
  const daemon = { owner: "daemon pid 1", sendTimeoutMs: 5 * MINUTE, take: "due" } as const;
  const run = { owner: "run pid 2", sendTimeoutMs: 5 * MINUTE, take: "open" } as const;

  it("lets one process win: a claim younger than the send timeout is never taken for a crashed one", async () => {
    const clock = manualClock();
    const path = join(ledgers.dir(), "ledger.db");
    const first = ledgers.open(path, clock);
    const second = ledgers.open(path, clock);
    await first.recordSlot(aSlot());
    const won = await first.claimDelivery(KEY, SLACK, daemon);
    expect(won).toMatchObject({ claimed: true, token: 1, before: { state: "pending" } });
    clock.advance(5 * MINUTE - 1);
    expect(await second.claimDelivery(KEY, SLACK, run)).toMatchObject({
      claimed: false,
      delivery: { state: "sending", claimedBy: "daemon pid 1", attempts: 1 },
    });
    clock.advance(1);
    // Its sender is gone and what it posted has landed: taken over, looking first.
    expect(await second.claimDelivery(KEY, SLACK, run)).toMatchObject({
      claimed: true,
      token: 2,
      before: { state: "sending", attempts: 1 },
    });
  });

  it("fences writes by the token: a sender whose claim was taken over records nothing", async () => {
    const clock = manualClock();
    const ledger = ledgers.open(undefined, clock);
    await ledger.recordSlot(aSlot());
    const stale = await ledger.claimDelivery(KEY, SLACK, daemon);
    clock.advance(6 * MINUTE);
    const fresh = await ledger.claimDelivery(KEY, SLACK, run);
    if (!stale.claimed || !fresh.claimed) throw new Error("both claims should have been won");
    expect(await ledger.markFailed(KEY, SLACK, "timed out", null, stale.token)).toBe(false);
    expect(
      (await ledger.getSlot(KEY))?.deliveries.find((d) => d.destination === SLACK),
    ).toMatchObject({
      state: "sending",
      claimedBy: "run pid 2",
    });
    expect(await ledger.markSent(KEY, SLACK, { ref: "1.1" }, fresh.token)).toBe(true);
    expect(await ledger.isSlotDelivered(KEY)).toBe(false); // the email is still pending
    expect(await ledger.claimDelivery(KEY, SLACK, run)).toMatchObject({ claimed: false });
  });

  it("takes a failure only once its retry is due for the daemon, at once for run, and anything with take any", async () => {
    const clock = manualClock();
    const ledger = ledgers.open(undefined, clock);
    await ledger.recordSlot(aSlot());
    await beginAttempt(ledger, KEY, SLACK);
    await ledger.markFailed(KEY, SLACK, "down", new Date(clock.now().getTime() + MINUTE));
    expect((await ledger.claimDelivery(KEY, SLACK, daemon)).claimed).toBe(false);
    expect(await ledger.claimDelivery(KEY, SLACK, run)).toMatchObject({
      claimed: true,
      before: { state: "failed" },
    });
    await ledger.markSent(KEY, SLACK, { ref: "1.1" });
    expect((await ledger.claimDelivery(KEY, SLACK, run)).claimed).toBe(false);
    expect(await ledger.claimDelivery(KEY, SLACK, { ...run, take: "any" })).toMatchObject({
      claimed: true,
      before: { state: "sent" },
    });
  });
});

describe("whether a claim is still its sender's", () => {
  const ledgers = useTempLedgers();
  const daemon = { owner: "daemon pid 1", sendTimeoutMs: 5 * MINUTE, take: "due" } as const;
  const run = { owner: "run pid 2", sendTimeoutMs: 5 * MINUTE, take: "open" } as const;

  it("is true for the claim the destination holds, and false once another took it over", async () => {
    const clock = manualClock();
    const ledger = ledgers.open(undefined, clock);
    await ledger.recordSlot(aSlot());
    const stale = await ledger.claimDelivery(KEY, SLACK, daemon);
    if (!stale.claimed) throw new Error("the first claim should have been won");
    expect(await ledger.holdsClaim(KEY, SLACK, stale.token)).toBe(true);
    expect(await ledger.holdsClaim(KEY, EMAIL, stale.token)).toBe(false); // never claimed
    clock.advance(6 * MINUTE);
    const fresh = await ledger.claimDelivery(KEY, SLACK, run);
    if (!fresh.claimed) throw new Error("the stale claim should have been taken over");
    expect(await ledger.holdsClaim(KEY, SLACK, stale.token)).toBe(false);
    expect(await ledger.holdsClaim(KEY, SLACK, fresh.token)).toBe(true);
  });
});

describe("claiming a slot's run", () => {
  const ledgers = useTempLedgers();
  const EXPIRY = 5 * MINUTE;

  it("lets one process run a slot at a time, and another once the run is released", async () => {
    const clock = manualClock();
    const path = join(ledgers.dir(), "ledger.db");
    const first = ledgers.open(path, clock);
    const second = ledgers.open(path, clock);
    const won = await first.claimSlotRun(KEY, "replica a", EXPIRY);
    expect(won).toEqual({ token: 1, takenOver: false });
    expect(await second.claimSlotRun(KEY, "replica b", EXPIRY)).toBeNull();
    expect(await second.claimSlotRun("checkout.daily.2026-11-16", "replica b", EXPIRY)).toEqual({
      token: 1,
      takenOver: false,
    }); // another slot is free
    if (!won) throw new Error("the first claim should have been won");
    await first.releaseSlotRun(KEY, won);
    expect(await second.claimSlotRun(KEY, "replica b", EXPIRY)).toEqual({
      token: 2,
      takenOver: false,
    });
  });

  it("is taken over once its holder's claim is older than the expiry, and a stale release frees nothing", async () => {
    const clock = manualClock();
    const ledger = ledgers.open(undefined, clock);
    const stale = await ledger.claimSlotRun(KEY, "replica a", EXPIRY);
    if (!stale) throw new Error("the first claim should have been won");
    clock.advance(EXPIRY - 1);
    expect(await ledger.claimSlotRun(KEY, "replica b", EXPIRY)).toBeNull();
    clock.advance(1);
    const fresh = await ledger.claimSlotRun(KEY, "replica b", EXPIRY);
    expect(fresh).toEqual({ token: 2, takenOver: true });
    // The first replica, back from a stall, lets go of a claim that is no longer its own.
    await ledger.releaseSlotRun(KEY, stale);
    expect(await ledger.claimSlotRun(KEY, "replica c", EXPIRY)).toBeNull();
  });
});
