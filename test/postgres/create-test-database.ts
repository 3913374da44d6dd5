import { inject } from "vitest";

/**
 * A fresh, empty database on the run's shared PostgreSQL server (started on first use by
 * test/postgres.global-setup.ts), as a `postgres://` URL. A test that stops the server, or needs
 * settings of its own, starts its own with `startPostgres` instead.
 */
export async function createTestDatabase(): Promise<string> {
  const databases = inject("postgresDatabasesUrl");
  if (!databases) {
    throw new Error(
      "no PostgreSQL in this vitest project: the e2e project shares one (see vitest.config.ts) — put the test under test/postgres or name it *postgres*.test.ts",
    );
  }
  const response = await fetch(databases, { method: "POST" });
  const body = await response.text();
  if (!response.ok) throw new Error(`no test database: ${body}`);
  return body;
}
