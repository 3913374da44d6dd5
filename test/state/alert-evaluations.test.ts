import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { NewAlertEvaluation } from "../../src/state/ledger.js";
import { Database } from "../../src/state/sqlite/sqlite.js";
import { aSlot, manualClock, useTempLedgers } from "./ledger-builders.js";

function anEvaluation(
  key: string,
  overrides: Partial<NewAlertEvaluation> = {},
): NewAlertEvaluation {
  return {
    slot: aSlot({ key, kind: "alert", job: "flaky", destinations: ["slack:C0ALERTS"] }),
    alert: "flaky",
    states: [
      {
        team: "checkout",
        alert: "flaky",
        scope: "proj-1",
        state: "warn",
        since: new Date("2026-11-16T08:00:00.000Z"),
        breaches: 1,
        lastValue: 4.2,
        lastNotifiedAt: new Date("2026-11-16T08:00:00.000Z"),
        firedAt: new Date("2026-11-16T08:00:00.000Z"),
        threadKey: key,
      },
    ],
    results: [],
    notification: { slack: null, email: null, msteams: null, webhook: null, pagerduty: null },
    ...overrides,
  };
}

function firstState() {
  const [state] = anEvaluation("x").states;
  if (!state) throw new Error("no state");
  return state;
}

describe("alert evaluations in the ledger", () => {
  const ledgers = useTempLedgers();

  it("record the slot, the states and the notification together, once", async () => {
    const clock = manualClock("2026-11-16T08:00:00.000Z");
    const ledger = ledgers.open(undefined, { now: clock.now });
    expect(await ledger.alertStates("checkout", "flaky")).toEqual([]);
    expect(
      await ledger.recordAlertEvaluation(anEvaluation("checkout.alert.flaky.2026-11-15")),
    ).toBe(true);
    expect(await ledger.alertStates("checkout", "flaky")).toEqual([
      expect.objectContaining({
        scope: "proj-1",
        state: "warn",
        breaches: 1,
        threadKey: "checkout.alert.flaky.2026-11-15",
      }),
    ]);
    expect(
      (await ledger.getSlot("checkout.alert.flaky.2026-11-15"))?.deliveries.map((d) => d.state),
    ).toEqual(["pending"]);
    expect(
      (await ledger.getAlertEvaluation("checkout.alert.flaky.2026-11-15"))?.notification,
    ).toEqual({
      slack: null,
      email: null,
      msteams: null,
      webhook: null,
      pagerduty: null,
    });

    // A second evaluation of the same slot (a retry, a restart) changes nothing.
    const again = anEvaluation("checkout.alert.flaky.2026-11-15", {
      states: [{ ...firstState(), state: "ok", firedAt: null, threadKey: null }],
      notification: null,
    });
    expect(await ledger.recordAlertEvaluation(again)).toBe(false);
    expect((await ledger.alertStates("checkout", "flaky"))[0]?.state).toBe("warn");
    expect(
      (await ledger.getAlertEvaluation("checkout.alert.flaky.2026-11-15"))?.notification,
    ).toEqual({
      slack: null,
      email: null,
      msteams: null,
      webhook: null,
      pagerduty: null,
    });
  });

  it("leave nothing behind when the transaction fails half-way", async () => {
    const ledger = ledgers.open();
    const broken = anEvaluation("checkout.alert.flaky.2026-11-15", {
      // A state the table's CHECK refuses, after the slot was inserted in the same transaction.
      states: [{ ...firstState(), state: "exploded" as never }],
    });
    await expect(ledger.recordAlertEvaluation(broken)).rejects.toThrow();
    expect(await ledger.getSlot("checkout.alert.flaky.2026-11-15")).toBeNull();
    expect(await ledger.getAlertEvaluation("checkout.alert.flaky.2026-11-15")).toBeNull();
  });

  it("list a team's evaluations within a period, oldest first", async () => {
    const ledger = ledgers.open();
    for (const day of ["2026-11-14", "2026-11-15", "2026-11-16"]) {
      const evaluation = anEvaluation(`checkout.alert.flaky.${day}`);
      await ledger.recordAlertEvaluation({
        ...evaluation,
        slot: { ...evaluation.slot, period: { start: day, end: day } },
      });
    }
    const listed = await ledger.alertEvaluations({
      team: "checkout",
      from: "2026-11-15",
      to: "2026-11-16",
    });
    expect(listed.map((e) => e.key)).toEqual([
      "checkout.alert.flaky.2026-11-15",
      "checkout.alert.flaky.2026-11-16",
    ]);
  });

  it("migrate a version-1 file's alert states, keeping them", async () => {
    const path = join(ledgers.dir(), "v1.sqlite");
    const db = new Database(path);
    db.exec(`CREATE TABLE alert_states (team TEXT NOT NULL, alert TEXT NOT NULL, scope TEXT NOT NULL,
      state TEXT NOT NULL, since TEXT NOT NULL, last_value REAL, last_notified_at TEXT,
      updated_at TEXT NOT NULL, PRIMARY KEY (team, alert, scope));
      INSERT INTO alert_states VALUES ('checkout', 'flaky', 'team', 'critical', '2026-11-10T08:00:00.000Z', 6.1, NULL, '2026-11-10T08:00:00.000Z');`);
    // Version 1 had more tables; the migration only needs the alert table to exist.
    db.exec(
      "CREATE TABLE slots (key TEXT PRIMARY KEY, team TEXT NOT NULL, kind TEXT NOT NULL, job TEXT NOT NULL, fire_at TEXT NOT NULL, period_start TEXT NOT NULL, period_end TEXT NOT NULL, created_at TEXT NOT NULL, finished_at TEXT)",
    );
    db.exec(
      "CREATE TABLE deliveries (slot_key TEXT NOT NULL, destination TEXT NOT NULL, state TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, last_error TEXT, next_attempt_at TEXT, slack_ts TEXT, message_id TEXT, updated_at TEXT NOT NULL, PRIMARY KEY (slot_key, destination))",
    );
    db.exec(
      "CREATE TABLE daemon_lease (id INTEGER PRIMARY KEY, owner TEXT NOT NULL, token TEXT NOT NULL, pid INTEGER NOT NULL, host TEXT NOT NULL, acquired_at TEXT NOT NULL, renewed_at TEXT NOT NULL)",
    );
    db.pragma("user_version = 1");
    db.close();
    const ledger = ledgers.open(path);
    expect(await ledger.alertStates("checkout", "flaky")).toEqual([
      expect.objectContaining({
        scope: "team",
        state: "critical",
        breaches: 0,
        firedAt: new Date("2026-11-10T08:00:00.000Z"),
        threadKey: null,
      }),
    ]);
  });
});
