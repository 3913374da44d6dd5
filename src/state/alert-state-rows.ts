import type { Instant } from "./instant.js";
import type { AlertEvaluation, AlertLevel, AlertState, NewAlertEvaluation } from "./ledger.js";
import {
  decodeNotification,
  decodeResults,
  encodeNotification,
  encodeResults,
} from "./stored-evaluation.js";

// The rows of alert states and evaluations, the same columns in SQLite and PostgreSQL, and their
// mapping to the ledger's plain records.

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

/**
 * An evaluation's row as both stores insert it, in column order: slot_key, team, alert,
 * period_start, period_end, results, notification (created_at is each store's clock).
 */
export function evaluationValues(
  record: NewAlertEvaluation,
): [string, string, string, string, string, string, string | null] {
  const { key, team, period } = record.slot;
  return [
    key,
    team,
    record.alert,
    period.start,
    period.end,
    encodeResults(record.results),
    encodeNotification(record.notification),
  ];
}
