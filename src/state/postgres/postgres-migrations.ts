import type { PoolClient } from "pg";
import { LedgerError } from "../../errors.js";

// The ledger's schema in PostgreSQL, versioned in code like SQLite's (`migrations.ts`): the
// same tables, with PostgreSQL's types. Replicas starting together migrate once: each takes a
// transaction-scoped advisory lock first, and the second finds nothing left to do. No daemon
// lease table: replicas share the ledger, and claims share the work.

const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE slots (
    key text PRIMARY KEY,
    team text NOT NULL,
    kind text NOT NULL CHECK (kind IN ('digest', 'alert')),
    job text NOT NULL,
    fire_at timestamptz NOT NULL,
    period_start text NOT NULL,
    period_end text NOT NULL,
    created_at timestamptz NOT NULL,
    finished_at timestamptz
  );
  CREATE INDEX slots_by_fire ON slots (fire_at);
  CREATE INDEX slots_by_team_fire ON slots (team, fire_at);

  CREATE TABLE deliveries (
    slot_key text NOT NULL,
    destination text NOT NULL,
    state text NOT NULL CHECK (state IN ('pending', 'sending', 'sent', 'failed')),
    attempts integer NOT NULL DEFAULT 0,
    last_error text,
    next_attempt_at timestamptz,
    slack_ts text,
    message_id text,
    updated_at timestamptz NOT NULL,
    claim integer NOT NULL DEFAULT 0,
    claimed_by text,
    claimed_at timestamptz,
    claimed_from text,
    PRIMARY KEY (slot_key, destination)
  );
  CREATE INDEX deliveries_retry ON deliveries (state, next_attempt_at);

  CREATE TABLE delivery_parts (
    slot_key text NOT NULL,
    destination text NOT NULL,
    part text NOT NULL,
    ref text,
    done_at timestamptz NOT NULL,
    PRIMARY KEY (slot_key, destination, part)
  );

  CREATE TABLE slot_runs (
    slot_key text PRIMARY KEY,
    token integer NOT NULL,
    claimed_by text NOT NULL,
    claimed_at timestamptz NOT NULL,
    released boolean NOT NULL DEFAULT false,
    taken_over boolean NOT NULL DEFAULT false
  );

  CREATE TABLE alert_states (
    team text NOT NULL,
    alert text NOT NULL,
    scope text NOT NULL,
    state text NOT NULL CHECK (state IN ('ok', 'pending', 'warn', 'critical', 'no_data')),
    since timestamptz NOT NULL,
    breaches integer NOT NULL DEFAULT 0,
    last_value double precision,
    last_notified_at timestamptz,
    fired_at timestamptz,
    thread_key text,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (team, alert, scope)
  );

  CREATE TABLE alert_evaluations (
    slot_key text PRIMARY KEY,
    team text NOT NULL,
    alert text NOT NULL,
    period_start text NOT NULL,
    period_end text NOT NULL,
    results text NOT NULL,
    notification text,
    created_at timestamptz NOT NULL
  );
  CREATE INDEX alert_evaluations_by_team ON alert_evaluations (team, period_start);
  `,
  // 2: the day store (`day-store.ts`), as SQLite's migration 5.
  `
  CREATE TABLE insight_days (
    project text NOT NULL,
    filters text NOT NULL,
    zone text NOT NULL,
    date text NOT NULL,
    runs_passed integer,
    runs_failed integer,
    run_mean_ms double precision,
    tests_passed integer,
    tests_failed integer,
    tests_skipped integer,
    tests_flaky integer,
    tests_timed_out integer,
    fetched_at timestamptz NOT NULL,
    PRIMARY KEY (project, filters, zone, date)
  );
  `,
  // 3: when the ledger first saw each job, as SQLite's migration 6.
  `
  CREATE TABLE job_first_seen (
    team text NOT NULL,
    kind text NOT NULL CHECK (kind IN ('digest', 'alert')),
    job text NOT NULL,
    first_seen_at timestamptz NOT NULL,
    PRIMARY KEY (team, kind, job)
  );
  INSERT INTO job_first_seen (team, kind, job, first_seen_at)
    SELECT team, kind, job, min(fire_at) FROM slots GROUP BY team, kind, job;
  `,
  // 4: silences of alert scopes, as SQLite's migration 7.
  `
  CREATE TABLE silences (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    key text NOT NULL UNIQUE,
    team text NOT NULL,
    alert text NOT NULL,
    scope text NOT NULL,
    author text NOT NULL,
    starts_at timestamptz NOT NULL,
    ends_at timestamptz NOT NULL CHECK (ends_at > starts_at),
    created_at timestamptz NOT NULL,
    ended_at timestamptz,
    ended_by text
  );
  CREATE INDEX silences_by_team ON silences (team, ends_at);
  `,
  // 5: acknowledgements of a fire (issue 24), as SQLite's migration 8.
  `
  CREATE TABLE acknowledgements (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    key text NOT NULL UNIQUE,
    team text NOT NULL,
    alert text NOT NULL,
    fire_key text NOT NULL,
    author text NOT NULL,
    acknowledged_at timestamptz NOT NULL,
    cleared_at timestamptz
  );
  CREATE INDEX acknowledgements_by_alert ON acknowledgements (team, alert, fire_key);
  `,
  // 6: fetch claims of the day store, as SQLite's migration 9.
  `
  CREATE TABLE day_fetch_claims (
    project text NOT NULL,
    filters text NOT NULL,
    zone text NOT NULL,
    start_date text NOT NULL,
    owner text NOT NULL,
    claimed_at timestamptz NOT NULL,
    PRIMARY KEY (project, filters, zone, start_date)
  );
  `,
  // 7: incidents, as SQLite's migration 10 (here the CHECK changes in place).
  `
  ALTER TABLE slots DROP CONSTRAINT IF EXISTS slots_kind_check;
  ALTER TABLE slots ADD CONSTRAINT slots_kind_check
    CHECK (kind IN ('digest', 'alert', 'incident'));
  CREATE TABLE incidents (
    slot_key text PRIMARY KEY,
    fire_at timestamptz NOT NULL,
    record text NOT NULL,
    resolved_by text,
    created_at timestamptz NOT NULL
  );
  CREATE INDEX incidents_open ON incidents (resolved_by, fire_at);
  `,
  // 8: the insights API's requests per second, shared by replicas (postgres-shared-limits.ts).
  `
  CREATE TABLE api_request_window (
    second bigint PRIMARY KEY,
    used integer NOT NULL
  );
  `,
  // 9: acknowledgements passed on to PagerDuty, a slot kind of their own (SQLite's migration 11).
  `
  ALTER TABLE slots DROP CONSTRAINT IF EXISTS slots_kind_check;
  ALTER TABLE slots ADD CONSTRAINT slots_kind_check
    CHECK (kind IN ('digest', 'alert', 'incident', 'acknowledgement'));
  `,
  // 10: the window is every shared budget's (the API's, and Slack's per method and channel),
  // beside the holds a 429's Retry-After puts on one (postgres-shared-limits.ts).
  `
  ALTER TABLE api_request_window RENAME TO request_window;
  ALTER TABLE request_window ADD COLUMN budget text NOT NULL DEFAULT 'insights-api';
  ALTER TABLE request_window DROP CONSTRAINT api_request_window_pkey;
  ALTER TABLE request_window ADD PRIMARY KEY (budget, second);
  ALTER TABLE request_window ALTER COLUMN budget DROP DEFAULT;
  CREATE TABLE request_holds (
    budget text PRIMARY KEY,
    until_ms bigint NOT NULL
  );
  `,
];

/** The tables of the ledger's schema, all of which a ledger that can be written has. */
export const LEDGER_TABLES = [
  "insights_reporter_schema",
  "slots",
  "deliveries",
  "delivery_parts",
  "slot_runs",
  "alert_states",
  "alert_evaluations",
  "insight_days",
  "job_first_seen",
  "silences",
  "acknowledgements",
  "day_fetch_claims",
  "incidents",
  "request_window",
  "request_holds",
] as const;

/** The schema version this code writes. */
export const POSTGRES_SCHEMA_VERSION = MIGRATIONS.length;

// Any constant will do, as long as nothing else in the database takes the same advisory lock.
const MIGRATION_LOCK = 0x1e5d_9e01;

/**
 * Brings the database up to POSTGRES_SCHEMA_VERSION in one transaction under an advisory lock.
 * Refuses, untouched, a database written by a newer version of insights-reporter. Returns the
 * version found (0: an empty database, every table created now).
 */
export async function migratePostgres(client: PoolClient, location: string): Promise<number> {
  await client.query("BEGIN");
  try {
    await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    await client.query(
      "CREATE TABLE IF NOT EXISTS insights_reporter_schema (version integer NOT NULL)",
    );
    const { rows } = await client.query<{ version: number }>(
      "SELECT version FROM insights_reporter_schema",
    );
    const current = rows[0]?.version ?? 0;
    if (current > POSTGRES_SCHEMA_VERSION) {
      throw new LedgerError(
        `the ledger database ${location} has schema version ${current}, newer than this insights-reporter knows (${POSTGRES_SCHEMA_VERSION}) — upgrade every replica to the same version, or point state.url at another database`,
        { ledger: location, version: current, known: POSTGRES_SCHEMA_VERSION },
      );
    }
    for (const [index, sql] of MIGRATIONS.entries()) {
      if (index >= current) await client.query(sql);
    }
    if (rows.length === 0) {
      await client.query("INSERT INTO insights_reporter_schema (version) VALUES ($1)", [
        POSTGRES_SCHEMA_VERSION,
      ]);
    } else if (current < POSTGRES_SCHEMA_VERSION) {
      await client.query("UPDATE insights_reporter_schema SET version = $1", [
        POSTGRES_SCHEMA_VERSION,
      ]);
    }
    await client.query("COMMIT");
    return current;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  }
}
