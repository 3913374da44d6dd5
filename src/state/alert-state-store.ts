import type Database from "better-sqlite3";
import type { AlertLevel, AlertState, Ledger } from "./ledger.js";

// The last known state of each alert, per team and scope, so transitions survive restarts.

interface AlertStateRow {
  team: string;
  alert: string;
  scope: string;
  state: AlertLevel;
  since: string;
  last_value: number | null;
  last_notified_at: string | null;
  updated_at: string;
}

export type AlertStateStore = Pick<Ledger, "getAlertState" | "setAlertState">;

/** Alert states over an open database. */
export function createAlertStateStore(db: Database.Database, now: () => Date): AlertStateStore {
  const get = db.prepare<[string, string, string], AlertStateRow>(
    "SELECT * FROM alert_states WHERE team = ? AND alert = ? AND scope = ?",
  );
  const upsert = db.prepare(
    `INSERT INTO alert_states (team, alert, scope, state, since, last_value, last_notified_at, updated_at)
     VALUES (@team, @alert, @scope, @state, @since, @lastValue, @lastNotifiedAt, @updatedAt)
     ON CONFLICT (team, alert, scope) DO UPDATE SET
       state = @state, since = @since, last_value = @lastValue,
       last_notified_at = @lastNotifiedAt, updated_at = @updatedAt`,
  );
  return {
    getAlertState: (team, alert, scope) => {
      const row = get.get(team, alert, scope);
      return row ? toAlertState(row) : null;
    },
    setAlertState: (state) => {
      upsert.run({
        team: state.team,
        alert: state.alert,
        scope: state.scope,
        state: state.state,
        since: state.since.toISOString(),
        lastValue: state.lastValue,
        lastNotifiedAt: state.lastNotifiedAt?.toISOString() ?? null,
        updatedAt: now().toISOString(),
      });
    },
  };
}

function toAlertState(row: AlertStateRow): AlertState {
  return {
    team: row.team,
    alert: row.alert,
    scope: row.scope,
    state: row.state,
    since: new Date(row.since),
    lastValue: row.last_value,
    lastNotifiedAt: row.last_notified_at === null ? null : new Date(row.last_notified_at),
    updatedAt: new Date(row.updated_at),
  };
}
