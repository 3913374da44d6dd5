import { afterEach, describe, expect, it } from "vitest";
import { type PostgresServer, startPostgres } from "../postgres/start-postgres.js";
import { waitFor } from "./live-setup.js";
import { doneBy, postsByKey, type ReplicaSetup, replicaSetup, stopAll } from "./replica-setup.js";

// Replicas on a PostgreSQL of their own, which is stopped mid-cycle and started again.

let setup: ReplicaSetup | null = null;
let server: PostgresServer | null = null;
afterEach(async () => {
  await setup?.close();
  setup = null;
  await server?.stop();
  server = null;
});

describe("replicas when PostgreSQL goes away", () => {
  it("PostgreSQL stopped for 20 s mid-cycle: the daemons wait it out, nothing lost or posted twice", async () => {
    server = await startPostgres();
    const databaseUrl = await server.createDatabase();
    setup = await replicaSetup({ teams: 4, databaseUrl, sendTimeout: "1m", latencyMs: 400 });
    const replicas = [setup.start(), setup.start()];
    const slack = setup.slack;
    await Promise.all(replicas.map((r) => r.logged("daemon started")));
    // The cycle is under way (a slot is fetching) when the database goes.
    await waitFor("a slot run", () => setup?.emulator.requestLog.length, 10_000);
    await server.stopServer();
    await new Promise((resolve) => setTimeout(resolve, 20_000));
    await server.startServer();

    await waitFor("every team's digest", () => postsByKey(slack).size === 4, 60_000);
    // Every slot's run finished and recorded: a duplicate post would have come before.
    await waitFor("every slot done", () => replicas.flatMap(doneBy).length >= 4, 60_000);
    expect([...postsByKey(slack).values()]).toEqual([1, 1, 1, 1]);
    const logged = replicas.flatMap((r) => r.logs).map((l) => l.msg);
    expect(logged).toContain("the ledger database is unreachable; retrying");
    expect(logged).toContain("the ledger database is reachable again");
    // Neither replica crashed: both are still running, and stop cleanly.
    // On a failure, the last lines of a replica that exited say why.
    const exited = replicas.filter((r) => r.child.exitCode !== null);
    expect(
      exited.map((r) => [...r.logs.slice(-5).map((l) => JSON.stringify(l)), ...r.text]),
    ).toEqual([]);
    await stopAll(replicas);
  }, 120_000);
});
