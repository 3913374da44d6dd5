import { createServer } from "node:http";
import type { TestProject } from "vitest/node";
import { type PostgresServer, startPostgres } from "./postgres/start-postgres.js";

// One PostgreSQL server for the whole run, started by the first test file that asks for a
// database: each file gets a database of its own (CREATE DATABASE, ~0.1 s) instead of a server
// of its own (initdb, ~1.5 s), and a run without PostgreSQL tests starts none. Test files run
// in other processes, so they ask over loopback HTTP: see postgres/create-test-database.ts.

declare module "vitest" {
  export interface ProvidedContext {
    /** POST here for the URL of a fresh database on the shared server. */
    postgresDatabasesUrl: string;
  }
}

export default async function sharePostgres(project: TestProject): Promise<() => Promise<void>> {
  let server: Promise<PostgresServer> | undefined;
  const databases = createServer((_request, response) => {
    server ??= startPostgres();
    server
      .then((started) => started.createDatabase())
      .then(
        (url) => response.end(url),
        (error: Error) => {
          response.statusCode = 500;
          response.end(error.message);
        },
      );
  });
  await new Promise<void>((resolve) => databases.listen(0, "127.0.0.1", resolve));
  const address = databases.address();
  if (address === null || typeof address === "string") throw new Error("no port for databases");
  project.provide("postgresDatabasesUrl", `http://127.0.0.1:${address.port}/`);

  return async () => {
    databases.close();
    await (await server?.catch(() => undefined))?.stop();
  };
}
