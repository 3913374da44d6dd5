import { describe, expect, it } from "vitest";
import { LedgerLockedError } from "../../src/errors.js";
import { dueDestinationsOnly } from "../../src/scheduler/due-destinations.js";
import { openLedger } from "../../src/state/sqlite/open-ledger.js";
import { beginAttempt } from "../state/begin-attempt.js";
import { aDigest, aTeam, type Harness, useHarness } from "./daemon-harness.js";

const MINUTE = 60_000;
const SLACK = "slack:C0123ABCD";
const EMAIL = "email:qa@example.com";
const KEY = "checkout.daily.2026-06-09";
const FIRE = "2026-06-10T07:00:00Z"; // 09:00 in Berlin
const harness = useHarness();
const team = aTeam({ digests: [aDigest({ schedule: "0 9 * * *" })] });

async function delivery(h: Harness, destination: string) {
  const found = (await h.ledger.getSlot(KEY))?.deliveries.find(
    (d) => d.destination === destination,
  );
  if (!found) throw new Error(`no delivery ${destination} of ${KEY}`);
  return found;
}

/** Records the slot KEY as another process (a `run`) or an earlier run would. */
async function recordSlot(h: Harness, destinations: string[]): Promise<void> {
  await h.ledger.recordSlot({
    key: KEY,
    team: "checkout",
    kind: "digest",
    job: "daily",
    fireAt: new Date(FIRE),
    period: { start: "2026-06-09", end: "2026-06-09" },
    destinations,
  });
}

describe("retries of a failed destination", () => {
  it("follow 1, 5, 15, 60 minutes, then hourly, and give up before the next day's slot", async () => {
    const h = await harness([team], { destinations: [SLACK, EMAIL], fails: (id) => id === EMAIL });
    await h.tickAt(FIRE);
    const waits: number[] = [];
    let attempt = await delivery(h, EMAIL);
    while (attempt.nextAttemptAt) {
      waits.push((attempt.nextAttemptAt.getTime() - attempt.updatedAt.getTime()) / MINUTE);
      await h.tickAt(attempt.nextAttemptAt);
      attempt = await delivery(h, EMAIL);
    }
    expect(waits.slice(0, 6)).toEqual([1, 5, 15, 60, 60, 60]);
    expect(new Set(waits.slice(3))).toEqual(new Set([60]));
    // The last attempt is the last one before 09:00 the next day: 1 + 5 + 15 + 60·22 minutes in.
    expect(attempt).toMatchObject({ state: "failed", nextAttemptAt: null, attempts: 27 });
    expect(attempt.updatedAt.toISOString()).toBe("2026-06-11T06:21:00.000Z");
    expect(await delivery(h, SLACK)).toMatchObject({ state: "sent", attempts: 1 });
    expect(h.logs.filter((l) => String(l.msg).startsWith("delivery failed for good"))).toEqual([
      expect.objectContaining({ slot: KEY, destination: EMAIL, attempts: 27 }),
    ]);
  });

  it("wait for their time: a tick before the retry is due sends nothing", async () => {
    const h = await harness([team], { destinations: [EMAIL], fails: (_, n) => n === 1 });
    await h.tickAt(FIRE);
    await h.tickAt("2026-06-10T07:00:59Z");
    expect(h.runs).toHaveLength(1);
    await h.tickAt("2026-06-10T07:01:00Z");
    expect(h.runs.map((r) => r.key)).toEqual([KEY, KEY]);
    expect(await delivery(h, EMAIL)).toMatchObject({ state: "sent", attempts: 2 });
  });

  it("resend only the failed destination: the one that was delivered is not sent again", async () => {
    const h = await harness([team], {
      destinations: [SLACK, EMAIL],
      fails: (id, n) => id === EMAIL && n <= 2,
    });
    await h.tickAt(FIRE);
    await h.tickAt("2026-06-10T07:01:00Z");
    await h.tickAt("2026-06-10T07:06:00Z");
    expect(await delivery(h, EMAIL)).toMatchObject({ state: "sent", attempts: 3 });
    expect(await delivery(h, SLACK)).toMatchObject({
      state: "sent",
      attempts: 1,
      ref: "1.000100",
    });
    expect(await h.ledger.isSlotDelivered(KEY)).toBe(true);
  });

  it("keep their time across a restart: the new daemon waits for the retry instead of resending", async () => {
    const first = await harness([team], { destinations: [EMAIL], fails: (_, n) => n === 1 });
    await first.tickAt(FIRE);
    await first.daemon.stop(0);
    await first.ledger.releaseLease();
    const dir = first.ledger.location.replace(/\/ledger\.sqlite$/, "");
    const second = await harness([team], { ledgerDir: dir, destinations: [EMAIL] });
    await second.tickAt("2026-06-10T07:00:30Z");
    expect(second.runs).toEqual([]);
    await second.tickAt("2026-06-10T07:01:00Z");
    expect(second.runs.map((r) => r.key)).toEqual([KEY]);
    expect(await delivery(second, EMAIL)).toMatchObject({ state: "sent", attempts: 2 });
  });

  it("are given up, with the reason, when the job has left the config", async () => {
    const h = await harness([team], { destinations: [EMAIL], fails: () => true });
    await h.tickAt(FIRE);
    h.daemon.replaceJobs([]);
    await h.tickAt("2026-06-10T07:01:00Z");
    expect(h.runs).toHaveLength(1);
    expect(await delivery(h, EMAIL)).toMatchObject({
      state: "failed",
      nextAttemptAt: null,
      lastError: `${EMAIL} refused attempt 1 (given up: its job is no longer in the config)`,
    });
  });
});

describe("a due retry that a run does not attempt", () => {
  it("ends, with the reason, when the digest no longer delivers to that destination", async () => {
    const destinations = [SLACK, EMAIL];
    const h = await harness([team], { destinations, fails: (id) => id === EMAIL });
    await h.tickAt(FIRE);
    destinations.splice(destinations.indexOf(EMAIL), 1); // the config dropped the email
    await h.tickAt("2026-06-10T07:01:00Z");
    await h.tickAt("2026-06-10T07:01:01Z");
    await h.tickAt("2026-06-10T07:06:00Z");
    expect(h.runs).toHaveLength(2);
    expect(await delivery(h, EMAIL)).toMatchObject({
      state: "failed",
      nextAttemptAt: null,
      attempts: 1,
      lastError: `${EMAIL} refused attempt 1 (given up: the digest no longer delivers to ${EMAIL})`,
    });
  });

  it("waits for the next step of the backoff when the run threw before reaching it", async () => {
    let calls = 0;
    const h = await harness([team], {
      destinations: [EMAIL],
      fails: () => true,
      gate: async () => {
        calls += 1;
        if (calls > 1) throw new Error("the workbook could not be rendered");
      },
    });
    await h.tickAt(FIRE);
    await h.tickAt("2026-06-10T07:01:00Z");
    await h.tickEvery("2026-06-10T07:01:01Z", "2026-06-10T07:01:05Z", 1_000);
    expect(h.runs).toHaveLength(2);
    const email = await delivery(h, EMAIL);
    expect(email).toMatchObject({
      state: "failed",
      attempts: 1,
      lastError: "the workbook could not be rendered",
    });
    expect(email.nextAttemptAt?.toISOString()).toBe("2026-06-10T07:06:00.000Z");
  });
});

describe("a run's view of the ledger", () => {
  it("attempts only destinations that are new, pending, interrupted or due for a retry", async () => {
    const h = await harness([team]);
    const at = new Date("2026-06-10T08:00:00Z");
    const ids = ["a:waiting", "b:due", "c:given-up", "d:pending", "e:sent"];
    await recordSlot(h, ids);
    await h.ledger.markFailed(KEY, "a:waiting", "x", new Date(at.getTime() + MINUTE));
    await h.ledger.markFailed(KEY, "b:due", "x", at);
    await h.ledger.markFailed(KEY, "c:given-up", "x", null);
    await h.ledger.markSent(KEY, "e:sent", { ref: "1.1" });
    const atThatTime = openLedger(h.ledger.location, { now: () => at });
    const view = dueDestinationsOnly(atThatTime, { owner: "test", sendTimeoutMs: 5 * MINUTE });
    const taken: [string, string][] = [];
    for (const id of ids) taken.push([id, (await view.beginAttempt(KEY, id)).state]);
    expect(taken).toEqual([
      ["a:waiting", "later"],
      ["b:due", "failed"],
      ["c:given-up", "later"],
      ["d:pending", "pending"],
      ["e:sent", "sent"],
    ]);
    const states = (await h.ledger.getSlot(KEY))?.deliveries.map((d) => [d.destination, d.state]);
    expect(states).toEqual([
      ["a:waiting", "failed"],
      ["b:due", "sending"],
      ["c:given-up", "failed"],
      ["d:pending", "sending"],
      ["e:sent", "sent"],
    ]);
    await atThatTime.close();
  });
});

describe("a slot another process is sending", () => {
  it("is left to it while its send is fresh, and checked and finished once it went stale", async () => {
    const h = await harness([team], { destinations: [SLACK], start: "2026-06-10T06:59:00Z" });
    await h.tickAt("2026-06-10T06:59:30Z");
    // A `run` from the CLI starts posting this slot 30 s before the daemon's fire.
    await recordSlot(h, [SLACK]);
    await beginAttempt(h.ledger, KEY, SLACK);
    await h.tickAt(FIRE);
    await h.tickAt("2026-06-10T07:04:29Z");
    expect(h.runs).toEqual([]);
    // Five minutes without a word: that process died mid-send; the daemon takes the slot over.
    await h.tickAt("2026-06-10T07:04:31Z");
    expect(h.runs.map((r) => r.key)).toEqual([KEY]);
    expect(await delivery(h, SLACK)).toMatchObject({ state: "sent", attempts: 2 });
  });

  it("left sending by a crashed daemon, is taken over once its post could no longer land", async () => {
    const before = await harness([team], {
      destinations: [SLACK],
      gate: () => new Promise(() => {}),
    });
    await before.tickOnly(FIRE);
    await beginAttempt(before.ledger, KEY, SLACK); // it is posting when the process is killed
    const dir = before.ledger.location.replace(/\/ledger\.sqlite$/, "");
    await before.ledger.releaseLease();
    const after = await harness([team], {
      ledgerDir: dir,
      destinations: [SLACK],
      start: "2026-06-10T07:00:30Z",
    });
    // Killed mid-post, its post may still land: not looked for, and not sent again, yet.
    await after.tickAt("2026-06-10T07:00:31Z");
    await after.tickAt("2026-06-10T07:04:59Z");
    expect(after.runs).toEqual([]);
    await after.tickAt("2026-06-10T07:05:01Z");
    expect(after.runs.map((r) => r.key)).toEqual([KEY]);
    expect(await delivery(after, SLACK)).toMatchObject({ state: "sent" });
  });
});

describe("a slot another process starts sending while a daemon run has it", () => {
  it("is left sending, and taken over only once that send has gone stale", async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const h = await harness([team], {
      destinations: [SLACK],
      start: "2026-06-10T06:59:00Z",
      gate: () => gate,
    });
    await h.tickAt("2026-06-10T06:59:30Z");
    await recordSlot(h, [SLACK]); // a `run` from the CLI records the slot and fetches its report
    await h.tickOnly(FIRE); // the daemon launches too: the row is only pending
    await beginAttempt(h.ledger, KEY, SLACK); // the CLI reaches its post first
    release();
    await h.daemon.idle();
    expect(await delivery(h, SLACK)).toMatchObject({ state: "sending", attempts: 1 });

    await h.tickAt("2026-06-10T07:04:59Z");
    expect(h.runs).toHaveLength(1);
    // The CLI died mid-post: five minutes later the daemon checks and finishes the slot.
    await h.tickAt("2026-06-10T07:05:01Z");
    expect(h.runs).toHaveLength(2);
    expect(await delivery(h, SLACK)).toMatchObject({ state: "sent", attempts: 2 });
  });

  it("is left alone by a daemon retry of another destination of the slot", async () => {
    const h = await harness([team], {
      destinations: [SLACK, EMAIL],
      start: "2026-06-10T06:59:00Z",
    });
    await h.tickAt("2026-06-10T06:59:30Z");
    await recordSlot(h, [SLACK, EMAIL]);
    await beginAttempt(h.ledger, KEY, SLACK); // the CLI posts to Slack …
    await beginAttempt(h.ledger, KEY, EMAIL);
    await h.ledger.markFailed(KEY, EMAIL, "smtp down", new Date("2026-06-10T07:00:30Z")); // … its mail failed
    await h.tickAt(FIRE);
    await h.tickAt("2026-06-10T07:00:31Z"); // the email's retry runs
    expect(await delivery(h, EMAIL)).toMatchObject({ state: "sent" });
    expect(await delivery(h, SLACK)).toMatchObject({ state: "sending", attempts: 1 });
  });
});

describe("the daemon lease", () => {
  it("stops the daemon when another one has taken its ledger over", async () => {
    const fatal: Error[] = [];
    const h = await harness([team], { onFatal: (error) => fatal.push(error) });
    await h.tickAt(FIRE);
    // Another daemon finds the lease stale three minutes later (this one hung) and takes it.
    const other = openLedger(h.ledger.location, {
      now: () => new Date(Date.parse(FIRE) + 3 * MINUTE),
    });
    await other.acquireDaemonLease("the other daemon");
    await other.close();
    await h.tickAt("2026-06-11T07:00:00Z");
    expect(fatal).toEqual([expect.any(LedgerLockedError)]);
    expect(fatal[0]?.message).toMatch(/took it over/);
    expect(h.runs).toHaveLength(1);
    expect(h.daemon.status().stopping).toBe(true);
  });
});
