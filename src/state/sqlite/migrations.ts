import { foreignDatabaseError, newerSchemaError, wrongSchemaError } from "./ledger-problem.js";
import { missingFromSchema, readSchemaTables, type SchemaTables } from "./schema-tables.js";
import { Database } from "./sqlite.js";

// The ledger's schema, versioned in code: migration N brings a file to `user_version` N. All
// pending migrations run at open in one transaction, so a file is never half-migrated, and a
// second process opening at the same time waits and then finds nothing left to do.

const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE slots (
    key TEXT PRIMARY KEY,
    team TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('digest', 'alert')),
    job TEXT NOT NULL,
    fire_at TEXT NOT NULL,
    period_start TEXT NOT NULL,
    period_end TEXT NOT NULL,
    created_at TEXT NOT NULL,
    finished_at TEXT
  );
  CREATE INDEX slots_by_fire ON slots (fire_at);
  CREATE INDEX slots_by_team_fire ON slots (team, fire_at);

  CREATE TABLE deliveries (
    slot_key TEXT NOT NULL,
    destination TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('pending', 'sending', 'sent', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    last_error TEXT,
    next_attempt_at TEXT,
    slack_ts TEXT,
    message_id TEXT,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (slot_key, destination)
  );
  CREATE INDEX deliveries_retry ON deliveries (state, next_attempt_at);

  CREATE TABLE alert_states (
    team TEXT NOT NULL,
    alert TEXT NOT NULL,
    scope TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('ok', 'warn', 'critical')),
    since TEXT NOT NULL,
    last_value REAL,
    last_notified_at TEXT,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (team, alert, scope)
  );

  CREATE TABLE daemon_lease (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    owner TEXT NOT NULL,
    token TEXT NOT NULL,
    pid INTEGER NOT NULL,
    host TEXT NOT NULL,
    acquired_at TEXT NOT NULL,
    renewed_at TEXT NOT NULL
  );
  `,
  // 2: a destination is claimed for sending by one conditional write, with who claimed it, when,
  // from which state, and a token that the claimer's later writes must match (a fencing token,
  // as a PostgreSQL store would use); and the parts of a delivery already done (a Slack post,
  // each thread reply, the upload), so recovery finishes what a crash cut off.
  `
  ALTER TABLE deliveries ADD COLUMN claim INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE deliveries ADD COLUMN claimed_by TEXT;
  ALTER TABLE deliveries ADD COLUMN claimed_at TEXT;
  ALTER TABLE deliveries ADD COLUMN claimed_from TEXT;

  CREATE TABLE delivery_parts (
    slot_key TEXT NOT NULL,
    destination TEXT NOT NULL,
    part TEXT NOT NULL,
    ref TEXT,
    done_at TEXT NOT NULL,
    PRIMARY KEY (slot_key, destination, part)
  );
  `,
  // 3: alerts — the states the engine moves through (pending, no_data too), the consecutive
  // breaches `for` counts, and the thread of the fire; and each evaluation's results and the
  // notification it decided on, written with its slot in one transaction.
  `
  CREATE TABLE alert_states_v2 (
    team TEXT NOT NULL,
    alert TEXT NOT NULL,
    scope TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('ok', 'pending', 'warn', 'critical', 'no_data')),
    since TEXT NOT NULL,
    breaches INTEGER NOT NULL DEFAULT 0,
    last_value REAL,
    last_notified_at TEXT,
    fired_at TEXT,
    thread_key TEXT,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (team, alert, scope)
  );
  INSERT INTO alert_states_v2 (team, alert, scope, state, since, last_value, last_notified_at, fired_at, updated_at)
    SELECT team, alert, scope, state, since, last_value, last_notified_at,
           CASE WHEN state = 'ok' THEN NULL ELSE since END, updated_at
    FROM alert_states;
  DROP TABLE alert_states;
  ALTER TABLE alert_states_v2 RENAME TO alert_states;

  CREATE TABLE alert_evaluations (
    slot_key TEXT PRIMARY KEY,
    team TEXT NOT NULL,
    alert TEXT NOT NULL,
    period_start TEXT NOT NULL,
    period_end TEXT NOT NULL,
    results TEXT NOT NULL,
    notification TEXT,
    created_at TEXT NOT NULL
  );
  CREATE INDEX alert_evaluations_by_team ON alert_evaluations (team, period_start);
  `,
  // 4: the run of a slot is claimed before it fetches anything, so that processes sharing a
  // ledger (replicas on PostgreSQL; here, a second process on the same file) fetch and render
  // a fire once; a claim older than the send timeout belongs to a process that is gone.
  `
  CREATE TABLE slot_runs (
    slot_key TEXT PRIMARY KEY,
    token INTEGER NOT NULL,
    claimed_by TEXT NOT NULL,
    claimed_at TEXT NOT NULL,
    released INTEGER NOT NULL DEFAULT 0,
    taken_over INTEGER NOT NULL DEFAULT 0
  );
  `,
  // 5: the day store (`day-store.ts`): each project day fetched, as counts, with when it was
  // fetched; one row per project, filter set, zone and date.
  `
  CREATE TABLE insight_days (
    project TEXT NOT NULL,
    filters TEXT NOT NULL,
    zone TEXT NOT NULL,
    date TEXT NOT NULL,
    runs_passed INTEGER,
    runs_failed INTEGER,
    run_mean_ms REAL,
    tests_passed INTEGER,
    tests_failed INTEGER,
    tests_skipped INTEGER,
    tests_flaky INTEGER,
    tests_timed_out INTEGER,
    fetched_at TEXT NOT NULL,
    PRIMARY KEY (project, filters, zone, date)
  ) WITHOUT ROWID;
  `,
  // 6: when the ledger first saw each job, so that fires from before a job existed are not
  // counted as skipped. A job that has slots was there at its first slot's fire at the latest.
  `
  CREATE TABLE job_first_seen (
    team TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('digest', 'alert')),
    job TEXT NOT NULL,
    first_seen_at TEXT NOT NULL,
    PRIMARY KEY (team, kind, job)
  ) WITHOUT ROWID;
  INSERT INTO job_first_seen (team, kind, job, first_seen_at)
    SELECT team, kind, job, MIN(fire_at) FROM slots GROUP BY team, kind, job;
  `,
  // 7: silences of alert scopes (issue 24), each stored once under the key of the action that
  // asked for it; an id for people to name one by (rows are never deleted, so never reused).
  `
  CREATE TABLE silences (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    team TEXT NOT NULL,
    alert TEXT NOT NULL,
    scope TEXT NOT NULL,
    author TEXT NOT NULL,
    starts_at TEXT NOT NULL,
    ends_at TEXT NOT NULL CHECK (ends_at > starts_at),
    created_at TEXT NOT NULL,
    ended_at TEXT,
    ended_by TEXT
  );
  CREATE INDEX silences_by_team ON silences (team, ends_at);
  `,
  // 8: acknowledgements of a fire (issue 24), stored once per action key like silences;
  // cleared (not deleted) by a new escalation of the fire.
  `
  CREATE TABLE acknowledgements (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    team TEXT NOT NULL,
    alert TEXT NOT NULL,
    fire_key TEXT NOT NULL,
    author TEXT NOT NULL,
    acknowledged_at TEXT NOT NULL,
    cleared_at TEXT
  );
  CREATE INDEX acknowledgements_by_alert ON acknowledgements (team, alert, fire_key);
  `,
  // 9: who is fetching which chunk of a series' days (issue 35 item 14): two backfills at once
  // ask the API for each chunk once; a claim older than its expiry belonged to a dead process.
  `
  CREATE TABLE day_fetch_claims (
    project TEXT NOT NULL,
    filters TEXT NOT NULL,
    zone TEXT NOT NULL,
    start_date TEXT NOT NULL,
    owner TEXT NOT NULL,
    claimed_at TEXT NOT NULL,
    PRIMARY KEY (project, filters, zone, start_date)
  );
  `,
  // 10: incidents (issue 38 item 3): a slot kind of their own, and each incident's record
  // (versioned JSON) with the slot that resolved it. SQLite cannot change a CHECK in place, so
  // slots is made again with the new kind allowed.
  `
  CREATE TABLE slots_v2 (
    key TEXT PRIMARY KEY,
    team TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('digest', 'alert', 'incident')),
    job TEXT NOT NULL,
    fire_at TEXT NOT NULL,
    period_start TEXT NOT NULL,
    period_end TEXT NOT NULL,
    created_at TEXT NOT NULL,
    finished_at TEXT
  );
  INSERT INTO slots_v2 (key, team, kind, job, fire_at, period_start, period_end, created_at, finished_at)
    SELECT key, team, kind, job, fire_at, period_start, period_end, created_at, finished_at FROM slots;
  DROP TABLE slots;
  ALTER TABLE slots_v2 RENAME TO slots;
  CREATE INDEX slots_by_fire ON slots (fire_at);
  CREATE INDEX slots_by_team_fire ON slots (team, fire_at);

  CREATE TABLE incidents (
    slot_key TEXT PRIMARY KEY,
    fire_at TEXT NOT NULL,
    record TEXT NOT NULL,
    resolved_by TEXT,
    created_at TEXT NOT NULL
  );
  CREATE INDEX incidents_open ON incidents (resolved_by, fire_at);
  `,
  // 11: an acknowledgement from Slack passed on to PagerDuty is a slot of its own, so its send
  // is recorded and retried like every delivery. slots is made again, as in migration 10.
  `
  CREATE TABLE slots_v3 (
    key TEXT PRIMARY KEY,
    team TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('digest', 'alert', 'incident', 'acknowledgement')),
    job TEXT NOT NULL,
    fire_at TEXT NOT NULL,
    period_start TEXT NOT NULL,
    period_end TEXT NOT NULL,
    created_at TEXT NOT NULL,
    finished_at TEXT
  );
  INSERT INTO slots_v3 (key, team, kind, job, fire_at, period_start, period_end, created_at, finished_at)
    SELECT key, team, kind, job, fire_at, period_start, period_end, created_at, finished_at FROM slots;
  DROP TABLE slots;
  ALTER TABLE slots_v3 RENAME TO slots;
  CREATE INDEX slots_by_fire ON slots (fire_at);
  CREATE INDEX slots_by_team_fire ON slots (team, fire_at);
  `,
];

/** The schema version this code writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Brings the file up to SCHEMA_VERSION, then checks it has every table and column this code
 * uses. Refuses, untouched, a file written by a newer version and another program's database.
 */
export function migrate(db: Database, location: string): void {
  db.transaction(() => {
    const current = db.pragma("user_version", { simple: true }) as number;
    if (current > SCHEMA_VERSION) throw newerSchemaError(location, current, SCHEMA_VERSION);
    if (current === 0) {
      // Version 0 with tables in it was never ours: adding ours would only hide the mistake.
      const tables = [...readSchemaTables(db).keys()];
      if (tables.length > 0) throw foreignDatabaseError(location, tables);
    }
    for (const [index, sql] of MIGRATIONS.entries()) {
      if (index < current) continue;
      db.exec(sql);
    }
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  }).immediate();
  const missing = missingFromSchema(readSchemaTables(db), expectedTables());
  if (missing.length > 0) throw wrongSchemaError(location, SCHEMA_VERSION, missing);
}

let expected: SchemaTables | null = null;

/** The tables and columns the migrations create, read from a scratch in-memory database. */
function expectedTables(): SchemaTables {
  if (expected) return expected;
  const scratch = new Database(":memory:");
  try {
    for (const sql of MIGRATIONS) scratch.exec(sql);
    expected = readSchemaTables(scratch);
  } finally {
    scratch.close();
  }
  return expected;
}
