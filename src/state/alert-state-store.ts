import type Database from "better-sqlite3";
import type { Instant } from "./instant.js";
import type { AlertEvaluation, AlertLevel, AlertState, SyncLedger } from "./ledger.js";
import {
  decodeNotification,
  decodeResults,
  encodeNotification,
  encodeResults,
} from "./stored-evaluation.js";

// The last known state of each alert, per team and scope, and each evaluation with the
// notification it decided on, so transitions survive restarts and a retry re-sends what was
// decided instead of judging again against a state that has already moved.

export interface AlertStateRow {
  team: string;
  alert: string;
  scope: string;
  state: AlertLevel;
  since: Instant;
  breaches: number;
  last_value: number | null;
  last_notified_at: Instant | null;
  fired_at: Instant | null;
  thread_key: string | null;
  updated_at: Instant;
}

export interface EvaluationRow {
  slot_key: string;
  team: string;
  alert: string;
  period_start: string;
  period_end: string;
  results: string;
  notification: string | null;
  created_at: Instant;
}

export type AlertStateStore = Pick<
  SyncLedger,
  | "alertStates"
  | "firingAlerts"
  | "recordAlertEvaluation"
  | "getAlertEvaluation"
  | "alertEvaluations"
>;

/** Alert states and evaluations over an open database; slots are recorded through `recordSlot`. */
export function createAlertStateStore(
  db: Database.Database,
  now: () => Date,
  recordSlot: SyncLedger["recordSlot"],
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
          const { key, team, period } = record.slot;
          insertEvaluation.run(
            key,
            team,
            record.alert,
            period.start,
            period.end,
            encodeResults(record.results),
            encodeNotification(record.notification),
            at,
          );
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

export function toAlertState(row: AlertStateRow): AlertState {
  const date = (value: Instant | null) => (value === null ? null : new Date(value));
  return {
    team: row.team,
    alert: row.alert,
    scope: row.scope,
    state: row.state,
    since: new Date(row.since),
    breaches: row.breaches,
    lastValue: row.last_value,
    lastNotifiedAt: date(row.last_notified_at),
    firedAt: date(row.fired_at),
    threadKey: row.thread_key,
    updatedAt: new Date(row.updated_at),
  };
}

export function toEvaluation(row: EvaluationRow): AlertEvaluation {
  return {
    key: row.slot_key,
    team: row.team,
    alert: row.alert,
    period: { start: row.period_start, end: row.period_end },
    results: decodeResults(row.results, row.slot_key),
    notification: decodeNotification(row.notification, row.slot_key),
    createdAt: new Date(row.created_at),
  };
}
