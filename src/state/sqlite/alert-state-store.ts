import type Database from "better-sqlite3";
import {
  type AlertStateRow,
  type EvaluationRow,
  evaluationValues,
  toAlertState,
  toEvaluation,
} from "../alert-state-rows.js";
import type { AlertStateLog, SlotLog, Sync } from "../ledger.js";

// The last known state of each alert, per team and scope, and each evaluation with the
// notification it decided on, so transitions survive restarts and a retry re-sends what was
// decided instead of judging again against a state that has already moved.

export type AlertStateStore = Sync<AlertStateLog>;

/** Alert states and evaluations over an open database; slots are recorded through `recordSlot`. */
export function createAlertStateStore(
  db: Database.Database,
  now: () => Date,
  recordSlot: Sync<SlotLog>["recordSlot"],
): AlertStateStore {
  const states = db.prepare<[string, string], AlertStateRow>(
    "SELECT * FROM alert_states WHERE team = ? AND alert = ? ORDER BY scope",
  );
  const firing = db.prepare<[string], AlertStateRow>(
    "SELECT * FROM alert_states WHERE team = ? AND state IN ('warn', 'critical') ORDER BY alert, scope",
  );
  const upsert = db.prepare(
    `INSERT INTO alert_states (team, alert, scope, state, since, breaches, last_value, last_notified_at, fired_at, thread_key, updated_at)
     VALUES (@team, @alert, @scope, @state, @since, @breaches, @lastValue, @lastNotifiedAt, @firedAt, @threadKey, @updatedAt)
     ON CONFLICT (team, alert, scope) DO UPDATE SET
       state = @state, since = @since, breaches = @breaches, last_value = @lastValue,
       last_notified_at = @lastNotifiedAt, fired_at = @firedAt, thread_key = @threadKey,
       updated_at = @updatedAt`,
  );
  const insertEvaluation = db.prepare(
    `INSERT INTO alert_evaluations (slot_key, team, alert, period_start, period_end, results, notification, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const evaluation = db.prepare<[string], EvaluationRow>(
    "SELECT * FROM alert_evaluations WHERE slot_key = ?",
  );
  const evaluations = db.prepare<[string, string, string], EvaluationRow>(
    `SELECT * FROM alert_evaluations WHERE team = ? AND period_start >= ? AND period_end <= ?
     ORDER BY period_start, alert`,
  );

  return {
    alertStates: (team, alert) => states.all(team, alert).map(toAlertState),
    firingAlerts: (team) => firing.all(team).map(toAlertState),

    recordAlertEvaluation: (record) =>
      db
        .transaction(() => {
          if (!recordSlot(record.slot)) return false;
          const at = now().toISOString();
          for (const state of record.states) {
            upsert.run({
              team: state.team,
              alert: state.alert,
              scope: state.scope,
              state: state.state,
              since: state.since.toISOString(),
              breaches: state.breaches,
              lastValue: state.lastValue,
              lastNotifiedAt: state.lastNotifiedAt?.toISOString() ?? null,
              firedAt: state.firedAt?.toISOString() ?? null,
              threadKey: state.threadKey,
              updatedAt: at,
            });
          }
          insertEvaluation.run(...evaluationValues(record), at);
          return true;
        })
        .immediate(),

    getAlertEvaluation: (key) => {
      const row = evaluation.get(key);
      return row ? toEvaluation(row) : null;
    },

    alertEvaluations: ({ team, from, to }) => evaluations.all(team, from, to).map(toEvaluation),
  };
}
