import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { LedgerError, LedgerLockedError } from "../../src/errors.js";
import { createLogger } from "../../src/logger.js";
import type { AlertNotification } from "../../src/messages.js";
import type { IncidentRecord } from "../../src/state/incidents.js";
import type { ClaimOptions, Ledger, NewAlertEvaluation } from "../../src/state/ledger.js";
import { openPostgresLedger } from "../../src/state/postgres/postgres-ledger.js";
import type { ReceiptColumns } from "../../src/state/receipt-columns.js";
import { openLedger } from "../../src/state/sqlite/open-ledger.js";
import { Database } from "../../src/state/sqlite/sqlite.js";
import { createTestDatabase } from "../postgres/create-test-database.js";
import { aSlot } from "./ledger-builders.js";

// One contract per narrow store of the Ledger (`state/ledger.ts`), two stores: every behaviour
// the daemon relies on, run against SQLite and against a real PostgreSQL. AlertHolds' contract
// (silences, acknowledgements) is `silences-contract.e2e.test.ts`. Each test gets a fresh store and two connections to it ("two
// processes"), and uses real time: a claim is fresh with a long send timeout, stale with 0.

interface Store {
  /**
   * A fresh, empty ledger; `again()` opens a second connection to the same one, and
   * `setEvaluationJson` writes an evaluation's JSON columns as given, as another version would.
   */
  open(): Promise<{
    ledger: Ledger;
    again: () => Promise<Ledger>;
    setEvaluationJson: (key: string, results: string, notification: string | null) => Promise<void>;
    /** Takes the ledger back to the schema before first sightings, as an older version left it. */
    forgetFirstSightings: () => Promise<void>;
    /** Marks a delivery sent with its receipt in these columns, as an older version wrote it. */
    writeSentColumns: (key: string, destination: string, columns: ReceiptColumns) => Promise<void>;
  }>;
}

const logger = createLogger({ level: "silent" });
const opened: Ledger[] = [];
const dirs: string[] = [];

const sqlite: Store = {
  async open() {
    const dir = mkdtempSync(join(tmpdir(), "ledger-contract-"));
    dirs.push(dir);
    const path = join(dir, "ledger.sqlite");
    const connect = async () => track(openLedger(path));
    const setEvaluationJson = async (key: string, results: string, notification: string | null) => {
      const db = new Database(path);
      try {
        db.prepare(
          "UPDATE alert_evaluations SET results = ?, notification = ? WHERE slot_key = ?",
        ).run(results, notification, key);
      } finally {
        db.close();
      }
    };
    const forgetFirstSightings = async () => {
      const db = new Database(path);
      try {
        // Version 5 is the one before first sightings; later tables go too, to be made again.
        db.exec(
          "DROP TABLE acknowledgements; DROP TABLE silences; DROP TABLE job_first_seen; DROP TABLE day_fetch_claims; DROP TABLE incidents",
        );
        db.pragma("user_version = 5");
      } finally {
        db.close();
      }
    };
    const writeSentColumns = async (key: string, destination: string, columns: ReceiptColumns) => {
      const db = new Database(path);
      try {
        db.prepare(
          "UPDATE deliveries SET state = 'sent', attempts = 1, slack_ts = ?, message_id = ? WHERE slot_key = ? AND destination = ?",
        ).run(columns.slack_ts, columns.message_id, key, destination);
      } finally {
        db.close();
      }
    };
    return {
      ledger: await connect(),
      again: connect,
      setEvaluationJson,
      forgetFirstSightings,
      writeSentColumns,
    };
  },
};

const postgres: Store = {
  async open() {
    const url = await createTestDatabase();
    const connect = async () => track(await openPostgresLedger(url, { logger }));
    const setEvaluationJson = async (key: string, results: string, notification: string | null) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(
          "UPDATE alert_evaluations SET results = $1, notification = $2 WHERE slot_key = $3",
          [results, notification, key],
        );
      } finally {
        await client.end();
      }
    };
    const forgetFirstSightings = async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        // Version 2 is the one before first sightings; later tables go too, to be made again.
        await client.query(
          "DROP TABLE acknowledgements; DROP TABLE silences; DROP TABLE job_first_seen; DROP TABLE day_fetch_claims; DROP TABLE incidents; DROP TABLE request_window; DROP TABLE request_holds",
        );
        await client.query("UPDATE insights_reporter_schema SET version = 2");
      } finally {
        await client.end();
      }
    };
    const writeSentColumns = async (key: string, destination: string, columns: ReceiptColumns) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(
          "UPDATE deliveries SET state = 'sent', attempts = 1, slack_ts = $1, message_id = $2 WHERE slot_key = $3 AND destination = $4",
          [columns.slack_ts, columns.message_id, key, destination],
        );
      } finally {
        await client.end();
      }
    };
    return {
      ledger: await connect(),
      again: connect,
      setEvaluationJson,
      forgetFirstSightings,
      writeSentColumns,
    };
  },
};

function track(ledger: Ledger): Ledger {
  opened.push(ledger);
  return ledger;
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((ledger) => ledger.close()));
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const HOUR = 3_600_000;
const daemon = (owner = "replica-a"): ClaimOptions => ({ owner, sendTimeoutMs: HOUR, take: "due" });
const SLACK = "slack:C0123";
const EMAIL = "email:qa@example.com,b@example.com";

// Slots: recorded once, their runs claimed by one process at a time, their history, first sightings.
describe.each([
  ["SQLite", sqlite],
  ["PostgreSQL", postgres],
])("the SlotLog contract, %s", (_name, store) => {
  it("records a slot once, with each destination pending", async () => {
    const { ledger } = await store.open();
    expect(await ledger.recordSlot(aSlot())).toBe(true);
    expect(await ledger.recordSlot(aSlot())).toBe(false);
    const slot = await ledger.getSlot(aSlot().key);
    expect(slot?.fireAt.toISOString()).toBe("2026-11-16T08:00:00.000Z");
    expect(slot?.period).toEqual({ start: "2026-11-15", end: "2026-11-15" });
    expect(slot?.deliveries.map((d) => [d.destination, d.state, d.attempts])).toEqual([
      [EMAIL, "pending", 0],
      [SLACK, "pending", 0],
    ]);
    expect(slot?.finishedAt).toBeNull();
    expect(await ledger.isSlotDelivered(aSlot().key)).toBe(false);
    expect(await ledger.getSlot("nobody.daily.2026-01-01")).toBeNull();
    expect(await ledger.isSlotDelivered("nobody.daily.2026-01-01")).toBe(false);
  });

  it("lets one process run a slot at a time, and another take over a claim left stale", async () => {
    const { ledger, again } = await store.open();
    const other = await again();
    const key = aSlot().key;
    const runs = await Promise.all([
      ledger.claimSlotRun(key, "replica-a", HOUR),
      other.claimSlotRun(key, "replica-b", HOUR),
      other.claimSlotRun(key, "replica-c", HOUR),
    ]);
    const won = runs.filter((r) => r !== null);
    expect(won).toEqual([{ token: 1, takenOver: false }]);
    // Released: the next run takes it, not as a takeover.
    await ledger.releaseSlotRun(key, { token: 1, takenOver: false });
    const next = await other.claimSlotRun(key, "replica-b", HOUR);
    expect(next).toEqual({ token: 2, takenOver: false });
    // Its holder died: once the claim is older than the expiry, another takes it over.
    expect(await ledger.claimSlotRun(key, "replica-a", HOUR)).toBeNull();
    const takeover = await ledger.claimSlotRun(key, "replica-a", 0);
    expect(takeover).toEqual({ token: 3, takenOver: true });
    // The dead holder's release, should it come back, changes nothing.
    await other.releaseSlotRun(key, { token: 2, takenOver: false });
    expect(await other.claimSlotRun(key, "replica-b", HOUR)).toBeNull();
  });

  it("lists history newest first, by team, within the limit", async () => {
    const { ledger } = await store.open();
    for (const day of ["13", "14", "15"]) {
      await ledger.recordSlot(
        aSlot({
          key: `checkout.daily.2026-11-${day}`,
          fireAt: new Date(`2026-11-${Number(day) + 1}T08:00:00.000Z`),
        }),
      );
    }
    await ledger.recordSlot(aSlot({ key: "mobile.daily.2026-11-15", team: "mobile" }));
    const recent = await ledger.history({ team: "checkout", limit: 2 });
    expect(recent.map((s) => s.key)).toEqual([
      "checkout.daily.2026-11-15",
      "checkout.daily.2026-11-14",
    ]);
    expect(recent[0]?.deliveries).toHaveLength(2);
    expect((await ledger.history({ limit: 10 })).map((s) => s.team).sort()).toEqual([
      "checkout",
      "checkout",
      "checkout",
      "mobile",
    ]);
  });

  it("records when it first saw a job once, whichever process asks first", async () => {
    const { ledger, again } = await store.open();
    const other = await again();
    const daily = { team: "checkout", kind: "digest", job: "daily" } as const;
    const first = new Date("2026-11-16T08:00:00.000Z");
    const asked = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        (i % 2 ? other : ledger).jobFirstSeen(daily, new Date(first.getTime() + i * HOUR)),
      ),
    );
    const seen = asked[0]?.toISOString();
    expect(asked.map((d) => d.toISOString())).toEqual(asked.map(() => seen));
    const later = new Date("2026-11-20T08:00:00.000Z");
    expect((await ledger.jobFirstSeen(daily, later)).toISOString()).toBe(seen);
    // Each job has its own: an alert of the same name, another team's digest.
    const alert = { ...daily, kind: "alert" } as const;
    expect((await other.jobFirstSeen(alert, later)).toISOString()).toBe(later.toISOString());
    const mobile = { ...daily, team: "mobile" };
    expect((await ledger.jobFirstSeen(mobile, later)).toISOString()).toBe(later.toISOString());
  });

  it("takes a job's first sighting from its first slot when it upgrades an older ledger", async () => {
    const { ledger, again, forgetFirstSightings } = await store.open();
    for (const day of ["14", "15"]) {
      await ledger.recordSlot(
        aSlot({
          key: `checkout.daily.2026-11-${day}`,
          fireAt: new Date(`2026-11-${Number(day) + 1}T08:00:00.000Z`),
        }),
      );
    }
    await forgetFirstSightings();
    const upgraded = await again();
    const now = new Date("2026-11-20T08:00:00.000Z");
    const daily = { team: "checkout", kind: "digest", job: "daily" } as const;
    expect((await upgraded.jobFirstSeen(daily, now)).toISOString()).toBe(
      "2026-11-15T08:00:00.000Z",
    );
    // A job with no slot yet is first seen when it is first asked about.
    const weekly = { ...daily, job: "weekly" };
    expect((await upgraded.jobFirstSeen(weekly, now)).toISOString()).toBe(now.toISOString());
  });
});

// Deliveries: one claimer wins, a stale claim is taken over and fenced, retries, notes and parts.
describe.each([
  ["SQLite", sqlite],
  ["PostgreSQL", postgres],
])("the DeliveryLog contract, %s", (_name, store) => {
  it("lets exactly one of many concurrent claimers of a destination win", async () => {
    const { ledger, again } = await store.open();
    const other = await again();
    await ledger.recordSlot(aSlot());
    const claims = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        (i % 2 ? other : ledger).claimDelivery(aSlot().key, SLACK, daemon(`replica-${i}`)),
      ),
    );
    const won = claims.filter((c) => c.claimed);
    expect(won).toHaveLength(1);
    expect(won[0]).toMatchObject({ token: 1, before: { state: "pending", attempts: 0 } });
    const lost = claims.find((c) => !c.claimed);
    expect(lost).toMatchObject({ claimed: false, delivery: { state: "sending", attempts: 1 } });
  });

  it("leaves a fresh claim to its sender, and hands a stale one over with a new token", async () => {
    const { ledger, again } = await store.open();
    const other = await again();
    await ledger.recordSlot(aSlot());
    const first = await ledger.claimDelivery(aSlot().key, SLACK, daemon("replica-a"));
    if (!first.claimed) throw new Error("the first claim must win");
    expect(await other.claimDelivery(aSlot().key, SLACK, daemon("replica-b"))).toMatchObject({
      claimed: false,
    });
    const stale = { ...daemon("replica-b"), sendTimeoutMs: 0 };
    const second = await other.claimDelivery(aSlot().key, SLACK, stale);
    expect(second).toMatchObject({ claimed: true, token: 2, before: { state: "sending" } });
    expect(await ledger.holdsClaim(aSlot().key, SLACK, first.token)).toBe(false);
    expect(await other.holdsClaim(aSlot().key, SLACK, 2)).toBe(true);

    // The first sender's late writes are refused by the token; its successor's stand.
    expect(await ledger.markSent(aSlot().key, SLACK, { ref: "1.1" }, first.token)).toBe(false);
    expect(await ledger.markFailed(aSlot().key, SLACK, "late", null, first.token)).toBe(false);
    expect(await other.markSent(aSlot().key, SLACK, { ref: "2.2" }, 2)).toBe(true);
    const delivery = (await ledger.getSlot(aSlot().key))?.deliveries.find(
      (d) => d.destination === SLACK,
    );
    expect(delivery).toMatchObject({ state: "sent", ref: "2.2", claimedBy: "replica-b" });
  });

  it("claims a failure only when its retry is due (or for a person's run), never a sent one", async () => {
    const { ledger } = await store.open();
    await ledger.recordSlot(aSlot());
    const key = aSlot().key;
    const claimed = await ledger.claimDelivery(key, SLACK, daemon());
    if (!claimed.claimed) throw new Error("must win");
    const later = new Date(Date.now() + HOUR);
    expect(await ledger.markFailed(key, SLACK, "channel_not_found", later, claimed.token)).toBe(
      true,
    );
    expect((await ledger.claimDelivery(key, SLACK, daemon())).claimed).toBe(false);
    const run = await ledger.claimDelivery(key, SLACK, { ...daemon("run"), take: "open" });
    expect(run).toMatchObject({ claimed: true, before: { state: "failed", attempts: 1 } });
    if (!run.claimed) throw new Error("must win");
    await ledger.markSent(key, SLACK, { ref: "9.9" }, run.token);
    expect((await ledger.claimDelivery(key, SLACK, { ...daemon(), take: "open" })).claimed).toBe(
      false,
    );
    // A failure reported after the send never undoes it.
    expect(await ledger.markFailed(key, SLACK, "late failure", null)).toBe(false);
    expect(await ledger.claimDelivery(key, SLACK, { ...daemon(), take: "any" })).toMatchObject({
      claimed: true,
      before: { state: "sent", ref: "9.9" },
    });
  });

  it("lists failures whose retry is due, and finishes a slot when each destination is done", async () => {
    const { ledger } = await store.open();
    const key = aSlot().key;
    await ledger.recordSlot(aSlot());
    const soon = new Date(Date.now() - 1_000);
    await ledger.markFailed(key, EMAIL, "smtp down\n    at stack line", soon);
    const due = await ledger.dueRetries(new Date());
    expect(due.map((r) => [r.slot.key, r.destination, r.lastError])).toEqual([
      [key, EMAIL, "smtp down"],
    ]);
    expect(due[0]?.slot.team).toBe("checkout");
    expect(await ledger.dueRetries(new Date(Date.now() - 60_000))).toEqual([]);

    await ledger.markSent(key, SLACK, { ref: "1.2" });
    expect(await ledger.isSlotDelivered(key)).toBe(false);
    await ledger.markFailed(key, EMAIL, "given up", null);
    expect(await ledger.isSlotDelivered(key)).toBe(true);
    expect((await ledger.getSlot(key))?.finishedAt).toBeInstanceOf(Date);
  });

  it("records an acknowledgement's slot, and keeps a send's claim through the failure it marks while sending", async () => {
    const { ledger, again } = await store.open();
    const other = await again();
    const PD = "pagerduty:3f9a2c";
    const ack = aSlot({
      key: "checkout.alert.flaky.2026-11-15.acknowledged.acknowledge:C1:1.2:3.4:U1",
      kind: "acknowledgement",
      job: "flaky",
      destinations: [PD],
    });
    expect(await ledger.recordSlot(ack)).toBe(true);
    const claim = await ledger.claimDelivery(ack.key, PD, { ...daemon(), take: "open" });
    if (!claim.claimed) throw new Error("not claimed");
    // Marked a failure due later while it sends: another process leaves it until then.
    const later = new Date(Date.now() + 60_000);
    expect(await ledger.markFailed(ack.key, PD, "not sent yet", later, claim.token)).toBe(true);
    expect((await other.claimDelivery(ack.key, PD, daemon("replica-b"))).claimed).toBe(false);
    expect(await ledger.dueRetries(new Date())).toEqual([]);
    expect((await ledger.dueRetries(later)).map((r) => [r.slot.kind, r.destination])).toEqual([
      ["acknowledgement", PD],
    ]);
    // The sender's own claim still holds: its outcome is written.
    expect(await ledger.markSent(ack.key, PD, {}, claim.token)).toBe(true);
    expect(await ledger.isSlotDelivered(ack.key)).toBe(true);
  });

  it("leaves a send claimed to be retried if unfinished due once its claim is stale, in the claim's own write, until it is sent", async () => {
    const { ledger, again } = await store.open();
    const other = await again();
    const PD = "pagerduty:3f9a2c";
    const ack = aSlot({
      key: "checkout.alert.flaky.2026-11-15.acknowledged.acknowledge:C1:1.2:3.4:U7",
      kind: "acknowledgement",
      job: "flaky",
      destinations: [PD],
      owedRetry: { error: "not sent yet", dueAt: new Date(Date.now() - 1_000) },
    });
    await ledger.recordSlot(ack);
    await ledger.recordSlot(aSlot());
    const claim = await ledger.claimDelivery(ack.key, PD, { ...daemon(), retryIfUnfinished: true });
    if (!claim.claimed) throw new Error("must win");
    // A claim without it (a digest's, which its schedule finds again) owes no retry.
    expect((await ledger.claimDelivery(aSlot().key, SLACK, daemon())).claimed).toBe(true);
    const [sending] = (await ledger.getSlot(ack.key))?.deliveries ?? [];
    expect(sending?.state).toBe("sending");
    const claimedAt = sending?.claimedAt?.getTime() ?? Number.NaN;

    // Its sender stopped before any other write: due once the claim is stale, never before.
    expect(await ledger.dueRetries(new Date(claimedAt + HOUR - 1_000))).toEqual([]);
    const due = await ledger.dueRetries(new Date(claimedAt + HOUR + 1_000));
    expect(due.map((r) => [r.slot.key, r.destination, r.claim])).toEqual([
      [ack.key, PD, claim.token],
    ]);
    // Taken over as any stale claim (a send timeout of 0 sees it stale now), then sent.
    const taken = await other.claimDelivery(ack.key, PD, {
      ...daemon("replica-b"),
      sendTimeoutMs: 0,
      retryIfUnfinished: true,
    });
    expect(taken).toMatchObject({ claimed: true, before: { state: "sending" } });
    if (!taken.claimed) throw new Error("must win");
    expect(await other.markSent(ack.key, PD, {}, taken.token)).toBe(true);
    expect(await ledger.dueRetries(new Date(claimedAt + 2 * 24 * HOUR))).toEqual([]);
  });

  it("records a slot whose destinations are owed a retry in the same write: failed, due at the instant given, never pending", async () => {
    const { ledger } = await store.open();
    const PD = "pagerduty:3f9a2c";
    const dueAt = new Date(Date.now() + 60_000);
    const ack = aSlot({
      key: "checkout.alert.flaky.2026-11-15.acknowledged.acknowledge:C1:1.2:3.4:U9",
      kind: "acknowledgement",
      job: "flaky",
      destinations: [PD],
      owedRetry: { error: "not sent yet", dueAt },
    });
    expect(await ledger.recordSlot(ack)).toBe(true);
    const [delivery] = (await ledger.getSlot(ack.key))?.deliveries ?? [];
    expect(delivery).toMatchObject({ state: "failed", attempts: 0, lastError: "not sent yet" });
    expect(delivery?.nextAttemptAt?.getTime()).toBe(dueAt.getTime());
    expect(await ledger.isSlotDelivered(ack.key)).toBe(false);
    expect(await ledger.dueRetries(new Date(dueAt.getTime() - 1))).toEqual([]);
    expect((await ledger.dueRetries(dueAt)).map((r) => [r.slot.key, r.destination])).toEqual([
      [ack.key, PD],
    ]);
    // Recorded again (a redelivered press), it stays as the first write left it.
    expect(await ledger.recordSlot({ ...ack, owedRetry: undefined })).toBe(false);
    expect((await ledger.getSlot(ack.key))?.deliveries[0]?.state).toBe("failed");
  });

  it("keeps the note a delivery was sent with, and drops an earlier failure's error once sent", async () => {
    const { ledger } = await store.open();
    const key = aSlot().key;
    await ledger.recordSlot(aSlot());
    await ledger.markFailed(key, EMAIL, "smtp down", null);
    await ledger.markSent(key, EMAIL, { ref: "<m@x>" });
    const note = "left out Ghost (zzghost): not found";
    await ledger.markSent(key, SLACK, { ref: "1.2", note });
    const rows = (await ledger.getSlot(key))?.deliveries ?? [];
    expect(rows.map((d) => [d.destination, d.state, d.lastError]).sort()).toEqual(
      [
        [EMAIL, "sent", null],
        [SLACK, "sent", note],
      ].sort(),
    );
  });

  it("reads the receipt an older version kept in its kind's column as the delivery's ref", async () => {
    const { ledger, writeSentColumns } = await store.open();
    const key = aSlot().key;
    const WEBHOOK = "webhook:alerts";
    await ledger.recordSlot(aSlot({ destinations: [SLACK, EMAIL, WEBHOOK] }));
    await writeSentColumns(key, SLACK, { slack_ts: "1700000000.000100", message_id: null });
    await writeSentColumns(key, EMAIL, { slack_ts: null, message_id: "<k@insights-reporter>" });
    await writeSentColumns(key, WEBHOOK, { slack_ts: null, message_id: null });
    const refs = (await ledger.getSlot(key))?.deliveries.map((d) => [d.destination, d.ref]);
    expect(refs?.sort()).toEqual(
      [
        [EMAIL, "<k@insights-reporter>"],
        [SLACK, "1700000000.000100"],
        [WEBHOOK, null],
      ].sort(),
    );
    const any: ClaimOptions = { ...daemon(), take: "any" };
    expect(await ledger.claimDelivery(key, EMAIL, any)).toMatchObject({
      before: { state: "sent", ref: "<k@insights-reporter>" },
    });
    expect(await ledger.claimDelivery(key, SLACK, any)).toMatchObject({
      before: { state: "sent", ref: "1700000000.000100" },
    });
  });

  it("keeps the parts of a delivery, each once", async () => {
    const { ledger } = await store.open();
    const key = aSlot().key;
    await ledger.recordSlot(aSlot());
    await ledger.recordPart(key, SLACK, "post", "1700000000.000100");
    await ledger.recordPart(key, SLACK, "post", "other");
    await ledger.recordPart(key, SLACK, "thread 1", null);
    expect([...(await ledger.partsDone(key, SLACK))]).toEqual([
      ["post", "1700000000.000100"],
      ["thread 1", null],
    ]);
    expect((await ledger.partsDone(key, EMAIL)).size).toBe(0);
  });

  it("forgets a delivery's parts for a deliberate resend, and no other destination's", async () => {
    const { ledger } = await store.open();
    const key = aSlot().key;
    await ledger.recordSlot(aSlot());
    await ledger.recordPart(key, SLACK, "post", "1700000000.000100");
    await ledger.recordPart(key, EMAIL, "mail", null);
    await ledger.forgetParts(key, SLACK);
    expect((await ledger.partsDone(key, SLACK)).size).toBe(0);
    await ledger.recordPart(key, SLACK, "post", "1700000099.000100");
    expect([...(await ledger.partsDone(key, SLACK))]).toEqual([["post", "1700000099.000100"]]);
    expect([...(await ledger.partsDone(key, EMAIL))]).toEqual([["mail", null]]);
  });
});

// Alert states and evaluations: recorded once, all or nothing; their JSON read through its format.
describe.each([
  ["SQLite", sqlite],
  ["PostgreSQL", postgres],
])("the AlertStateLog contract, %s", (_name, store) => {
  it("records an alert evaluation once, with its slot and states, all or nothing", async () => {
    const { ledger, again } = await store.open();
    const other = await again();
    const evaluation = anEvaluation("warn");
    const results = await Promise.all([
      ledger.recordAlertEvaluation(evaluation),
      other.recordAlertEvaluation(anEvaluation("critical")),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
    const states = await ledger.alertStates("checkout", "flaky");
    expect(states).toHaveLength(1);
    const winner = results[0] ? "warn" : "critical";
    expect(states[0]).toMatchObject({ scope: "team", state: winner, breaches: 3, lastValue: 0.07 });
    expect(states[0]?.since.toISOString()).toBe("2026-11-16T08:00:00.000Z");
    expect((await ledger.firingAlerts("checkout")).map((s) => s.state)).toEqual([winner]);
    const stored = await ledger.getAlertEvaluation(evaluation.slot.key);
    expect(stored).toMatchObject({ alert: "flaky", notification: NOTIFICATION });
    expect(stored?.results).toEqual(anEvaluation(winner).results);
    expect(
      await ledger.alertEvaluations({ team: "checkout", from: "2026-11-01", to: "2026-11-30" }),
    ).toHaveLength(1);
    expect(
      await ledger.alertEvaluations({ team: "checkout", from: "2026-12-01", to: "2026-12-31" }),
    ).toEqual([]);
    const slot = await ledger.getSlot(evaluation.slot.key);
    expect(slot?.kind).toBe("alert");
    expect(slot?.deliveries.map((d) => d.state)).toEqual(["pending"]);
  });

  it("refuses an evaluation written in a newer format, naming the upgrade", async () => {
    const { ledger, setEvaluationJson } = await store.open();
    const evaluation = anEvaluation("warn");
    await ledger.recordAlertEvaluation(evaluation);
    const newer = JSON.stringify({ version: 99, data: { slack: null, email: null, teams: {} } });
    await setEvaluationJson(evaluation.slot.key, JSON.stringify({ version: 1, data: [] }), newer);
    const refused = await ledger.getAlertEvaluation(evaluation.slot.key).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(LedgerError);
    expect((refused as LedgerError).message).toBe(
      `the stored notification of the alert evaluation ${evaluation.slot.key} was written in format version 99 by a newer insights-reporter (this one reads up to version 1) — upgrade every replica that shares this ledger to the same version`,
    );
  });

  it("reads an evaluation written before the format had a version", async () => {
    const { ledger, setEvaluationJson } = await store.open();
    const evaluation = anEvaluation("warn");
    await ledger.recordAlertEvaluation(evaluation);
    // As run-alert wrote them until then: the bare array and the bare notification.
    await setEvaluationJson(
      evaluation.slot.key,
      JSON.stringify(evaluation.results),
      JSON.stringify(NOTIFICATION),
    );
    const stored = await ledger.getAlertEvaluation(evaluation.slot.key);
    expect(stored?.results).toEqual(evaluation.results);
    expect(stored?.notification).toEqual(NOTIFICATION);
  });

  it("refuses a stored notification that does not match its format, without a cast", async () => {
    const { ledger, setEvaluationJson } = await store.open();
    const evaluation = anEvaluation("warn");
    await ledger.recordAlertEvaluation(evaluation);
    await setEvaluationJson(evaluation.slot.key, "[]", JSON.stringify({ text: "fired" }));
    await expect(ledger.getAlertEvaluation(evaluation.slot.key)).rejects.toThrow(
      /stored notification of the alert evaluation .* does not match its format/,
    );
  });
});

// Whether the store answers.
describe.each([
  ["SQLite", sqlite],
  ["PostgreSQL", postgres],
])("the StoreHealth contract, %s", (_name, store) => {
  it("answers that it is reachable", async () => {
    const { ledger } = await store.open();
    expect(await ledger.reachable()).toBeNull();
  });
});

// The daemon's lease: one daemon per unshared ledger (a SQLite file); a shared one has none.
describe.each([
  ["SQLite", sqlite],
  ["PostgreSQL", postgres],
])("the LedgerLease contract, %s", (_name, store) => {
  it("lets one daemon hold an unshared ledger, every replica run on a shared one", async () => {
    const { ledger, again } = await store.open();
    const other = await again();
    await ledger.acquireDaemonLease("daemon-a");
    await ledger.renewLease();
    const second = other.acquireDaemonLease("daemon-b");
    if (ledger.shared) await expect(second).resolves.toBeUndefined();
    else await expect(second).rejects.toBeInstanceOf(LedgerLockedError);
    // Given up on a clean shutdown: the next daemon takes it at once.
    await ledger.releaseLease();
    await other.acquireDaemonLease("daemon-b");
    await other.renewLease();
    await other.releaseLease();
  });
});

// Incidents: recorded once with their slot, open while a member fires, resolved once.
describe.each([
  ["SQLite", sqlite],
  ["PostgreSQL", postgres],
])("the IncidentStore contract, %s", (_name, store) => {
  it("records an incident once with its slot, and resolves it once", async () => {
    const { ledger, again } = await store.open();
    const other = await again();
    const slot = aSlot({
      key: "incident.2026-11-16T08:00",
      team: "*",
      kind: "incident",
      job: "incident",
      destinations: [SLACK],
    });
    expect(await ledger.recordIncident(slot, INCIDENT)).toBe(true);
    expect(await other.recordIncident(slot, INCIDENT)).toBe(false);
    expect(await other.getIncident(slot.key)).toMatchObject({
      key: slot.key,
      record: INCIDENT,
      resolvedBy: null,
    });
    expect((await other.getSlot(slot.key))?.deliveries.map((d) => d.state)).toEqual(["pending"]);
    expect((await ledger.openIncidents()).map((i) => i.key)).toEqual([slot.key]);

    const resolution = { ...slot, key: `${slot.key}.resolved` };
    expect(await other.resolveIncident(slot.key, resolution)).toBe(true);
    expect(await ledger.resolveIncident(slot.key, resolution)).toBe(false);
    expect(await ledger.openIncidents()).toEqual([]);
    expect((await ledger.getIncident(slot.key))?.resolvedBy).toBe(resolution.key);
    expect(await ledger.getIncident("nobody.incident")).toBeNull();
  });
});

const INCIDENT: IncidentRecord = {
  summary: "3 projects in 2 teams: flaky rate up",
  channel: "C0INCIDENTS",
  members: [
    {
      team: "checkout",
      alert: "flaky-rate",
      metric: "flaky_rate",
      scope: "pdqmxlz",
      name: "Web",
      value: 4,
      fireKey: "checkout.alert.flaky-rate.2026-11-16",
      channel: "C0ALERTS",
    },
  ],
};

function anEvaluation(state: "warn" | "critical"): NewAlertEvaluation {
  const since = new Date("2026-11-16T08:00:00.000Z");
  return {
    slot: aSlot({
      key: "checkout.alert.flaky.2026-11-15",
      kind: "alert",
      job: "flaky",
      destinations: [SLACK],
    }),
    alert: "flaky",
    states: [
      {
        team: "checkout",
        alert: "flaky",
        scope: "team",
        state,
        since,
        breaches: 3,
        lastValue: 0.07,
        lastNotifiedAt: since,
        firedAt: since,
        threadKey: "checkout.alert.flaky.2026-11-15",
      },
    ],
    results: [
      {
        scope: "team",
        name: "Checkout (team)",
        value: 7,
        size: 1200,
        verdict: state,
        state,
        transition: "fired",
      },
    ],
    notification: NOTIFICATION,
  };
}

const NOTIFICATION: AlertNotification = {
  slack: null,
  email: { to: ["qa@example.com"], subject: "Fired", html: "<p>fired</p>", text: "fired" },
  msteams: null,
  webhook: { destination: "webhook:0123456789ab", body: '{"version":1}' },
  pagerduty: null,
};
