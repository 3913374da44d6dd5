import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { silenceHolds } from "../../src/alerts/silencing.js";
import { createLogger } from "../../src/logger.js";
import type { Ledger } from "../../src/state/ledger.js";
import { openPostgresLedger } from "../../src/state/postgres/postgres-ledger.js";
import type { NewSilence } from "../../src/state/silences.js";
import { openLedger } from "../../src/state/sqlite/open-ledger.js";
import { createTestDatabase } from "../postgres/create-test-database.js";

// Silences (issue 24), one contract for both stores: stored once per action key however many
// processes ask at once (ADR 0007), listed by team and by whether they hold, ended once.

interface Store {
  /** A fresh ledger, and a second connection to the same one ("another replica"). */
  open(): Promise<{ ledger: Ledger; again: () => Promise<Ledger> }>;
}

const logger = createLogger({ level: "silent" });
const opened: Ledger[] = [];
const dirs: string[] = [];
const track = (ledger: Ledger) => {
  opened.push(ledger);
  return ledger;
};

const sqlite: Store = {
  async open() {
    const dir = mkdtempSync(join(tmpdir(), "silences-contract-"));
    dirs.push(dir);
    const path = join(dir, "ledger.sqlite");
    const connect = async () => track(openLedger(path));
    return { ledger: await connect(), again: connect };
  },
};

const postgres: Store = {
  async open() {
    const url = await createTestDatabase();
    const connect = async () => track(await openPostgresLedger(url, { logger }));
    return { ledger: await connect(), again: connect };
  },
};

afterEach(async () => {
  await Promise.all(opened.splice(0).map((ledger) => ledger.close()));
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const NOW = new Date("2026-11-25T10:00:00.000Z");
const HOUR = 3_600_000;
const at = (hours: number) => new Date(NOW.getTime() + hours * HOUR);

function aSilence(overrides: Partial<NewSilence> = {}): NewSilence {
  return {
    key: "snooze:C0ALERTS:1764064800.000100:U0MARIA",
    team: "checkout",
    alert: "flaky-rate",
    scope: "pdqmxlz",
    author: "U0MARIA",
    startsAt: NOW,
    endsAt: at(24),
    ...overrides,
  };
}

describe.each([
  ["SQLite", sqlite],
  ["PostgreSQL", postgres],
])("the AlertHolds contract: silences, %s", (_name, store) => {
  it("stores a silence with its author, scope, start and end, and an id", async () => {
    const { ledger } = await store.open();
    const { silence, created } = await ledger.addSilence(aSilence(), NOW);
    expect(created).toBe(true);
    expect(silence).toEqual({
      id: expect.any(Number),
      team: "checkout",
      alert: "flaky-rate",
      scope: "pdqmxlz",
      author: "U0MARIA",
      startsAt: NOW,
      endsAt: at(24),
      createdAt: NOW,
      endedAt: null,
      endedBy: null,
    });
    expect(await ledger.silences({})).toEqual([silence]);
  });

  it("stores one silence for one action key, however many replicas apply it at once", async () => {
    const { ledger, again } = await store.open();
    const other = await again();
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => (i % 2 ? other : ledger).addSilence(aSilence(), NOW)),
    );
    expect(results.filter((r) => r.created)).toHaveLength(1);
    const ids = new Set(results.map((r) => r.silence.id));
    expect(ids.size).toBe(1);
    expect(await other.silences({})).toHaveLength(1);
    // Another action (another press) is another silence.
    expect((await ledger.addSilence(aSilence({ key: "snooze:other" }), NOW)).created).toBe(true);
    expect(await ledger.silences({})).toHaveLength(2);
  });

  it("lists a team's silences, and those holding at an instant", async () => {
    const { ledger } = await store.open();
    const day = (await ledger.addSilence(aSilence({ key: "a" }), NOW)).silence;
    const hour = (await ledger.addSilence(aSilence({ key: "b", endsAt: at(1) }), NOW)).silence;
    const later = (
      await ledger.addSilence(aSilence({ key: "c", startsAt: at(2), endsAt: at(3) }), NOW)
    ).silence;
    const mobile = (await ledger.addSilence(aSilence({ key: "d", team: "mobile" }), NOW)).silence;

    expect((await ledger.silences({ team: "checkout" })).map((s) => s.id)).toEqual([
      day.id,
      hour.id,
      later.id,
    ]);
    expect(
      (await ledger.silences({ team: "checkout", activeAt: at(0.5) })).map((s) => s.id),
    ).toEqual([day.id, hour.id]);
    // An end is exclusive: at its end a silence no longer holds.
    expect((await ledger.silences({ activeAt: at(1) })).map((s) => s.id)).toEqual([
      day.id,
      mobile.id,
    ]);
    expect((await ledger.silences({ activeAt: at(2.5) })).map((s) => s.id)).toEqual([
      day.id,
      mobile.id,
      later.id,
    ]);
    expect(silenceHolds(hour, at(0.5))).toBe(true);
    expect(silenceHolds(hour, at(1))).toBe(false);
    expect(silenceHolds(later, at(1))).toBe(false);
  });

  it("ends a silence once, records who ended it, and it no longer holds", async () => {
    const { ledger, again } = await store.open();
    const other = await again();
    const { silence } = await ledger.addSilence(aSilence(), NOW);
    const outcomes = await Promise.all([
      ledger.endSilence(silence.id, "cli:ana", at(1)),
      other.endSilence(silence.id, "U0BOB", at(1)),
    ]);
    expect(outcomes.map((o) => o.outcome).sort()).toEqual(["already_over", "ended"]);
    const ended = outcomes.find((o) => o.outcome === "ended");
    if (ended?.outcome !== "ended") throw new Error("no outcome ended it");
    expect(ended.silence.endedAt).toEqual(at(1));
    expect(["cli:ana", "U0BOB"]).toContain(ended.silence.endedBy);
    expect(await ledger.silences({ activeAt: at(2) })).toEqual([]);
    expect(await ledger.silences({})).toEqual([ended.silence]);
  });

  it("does not end a silence that ran out, and says when there is none", async () => {
    const { ledger } = await store.open();
    const { silence } = await ledger.addSilence(aSilence({ endsAt: at(1) }), NOW);
    const late = await ledger.endSilence(silence.id, "cli:ana", at(2));
    expect(late).toEqual({ outcome: "already_over", silence });
    expect(await ledger.endSilence(silence.id + 100, "cli:ana", at(0.5))).toEqual({
      outcome: "not_found",
    });
  });
});

// Acknowledgements (issue 24) keep the same contract: once per action key, cleared once.
describe.each([
  ["SQLite", sqlite],
  ["PostgreSQL", postgres],
])("the AlertHolds contract: acknowledgements, %s", (_name, store) => {
  const anAck = (
    key = "ack:C0ALERTS:1764064800.000100:U0MARIA",
    fireKey = "checkout.alert.flaky-rate.2026-11-24",
  ) => ({
    key,
    team: "checkout",
    alert: "flaky-rate",
    fireKey,
    author: "U0MARIA",
  });

  it("stores one acknowledgement for one action key, however many replicas apply it at once", async () => {
    const { ledger, again } = await store.open();
    const other = await again();
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => (i % 2 ? other : ledger).acknowledge(anAck(), NOW)),
    );
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.acknowledgement.id)).size).toBe(1);
    expect(await other.acknowledgements("checkout", "flaky-rate")).toEqual([
      {
        id: expect.any(Number),
        team: "checkout",
        alert: "flaky-rate",
        fireKey: "checkout.alert.flaky-rate.2026-11-24",
        author: "U0MARIA",
        acknowledgedAt: NOW,
        clearedAt: null,
      },
    ]);
    expect(await ledger.acknowledgements("checkout", "other-alert")).toEqual([]);
  });

  it("clears a fire's acknowledgements once, leaving other fires' standing", async () => {
    const { ledger, again } = await store.open();
    const other = await again();
    await ledger.acknowledge(anAck("a", "fire-1"), NOW);
    await ledger.acknowledge(anAck("b", "fire-1"), at(1));
    const kept = (await ledger.acknowledge(anAck("c", "fire-2"), NOW)).acknowledgement;
    const cleared = await Promise.all([
      ledger.clearAcknowledgements("checkout", "flaky-rate", ["fire-1"], at(2)),
      other.clearAcknowledgements("checkout", "flaky-rate", ["fire-1"], at(2)),
    ]);
    expect(cleared.reduce((a, b) => a + b, 0)).toBe(2);
    expect(await ledger.acknowledgements("checkout", "flaky-rate")).toEqual([kept]);
  });

  it("finds an acknowledgement by its action key, cleared or not", async () => {
    const { ledger, again } = await store.open();
    const other = await again();
    const { acknowledgement } = await ledger.acknowledge(anAck("a", "fire-1"), NOW);
    expect(await other.acknowledgement("a")).toEqual(acknowledgement);
    await ledger.clearAcknowledgements("checkout", "flaky-rate", ["fire-1"], at(1));
    expect(await other.acknowledgement("a")).toEqual({ ...acknowledgement, clearedAt: at(1) });
    expect(await other.acknowledgement("never-pressed")).toBeNull();
  });
});
