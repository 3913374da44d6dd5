import { afterEach, describe, expect, it } from "vitest";
import { runCli } from "../e2e/run-cli.js";
import { createTestDatabase } from "../postgres/create-test-database.js";
import { unwrapLines } from "../support/unwrap-lines.js";
import { waitFor } from "./live-setup.js";
import { doneBy, postsByKey, type ReplicaSetup, replicaSetup, stopAll } from "./replica-setup.js";

// Several daemons against one real PostgreSQL: every team's digest is due in the same minute,
// and each slot must reach its channel exactly once however the replicas share, die or stall.

let setup: ReplicaSetup | null = null;
afterEach(async () => {
  await setup?.close();
  setup = null;
});

describe("replicas on one PostgreSQL", () => {
  it("three daemons, every digest due at once: each slot is posted once, and the work is shared", async () => {
    const teams = 6;
    setup = await replicaSetup({
      teams,
      databaseUrl: await createTestDatabase(),
      sendTimeout: "1m",
      latencyMs: 150,
    });
    const replicas = [setup.start(), setup.start(), setup.start()];
    const slack = setup.slack;
    await waitFor("every team's digest", () => postsByKey(slack).size === teams, 40_000);
    // Every slot's run finished and recorded: a duplicate post would have come before.
    await waitFor("every slot done", () => replicas.flatMap(doneBy).length >= teams, 40_000);

    expect([...postsByKey(slack).values()]).toEqual(Array(teams).fill(1));
    const done = replicas.map((r) => doneBy(r).length);
    expect(done.reduce((a, b) => a + b, 0)).toBe(teams);
    // Each replica runs at most api.concurrency (2) slots at once and leaves the rest.
    expect(done.filter((n) => n > 0).length).toBeGreaterThanOrEqual(2);
    const ready = await fetch(`${await replicas[0]?.opsUrl()}/readyz`);
    expect(((await ready.json()) as { checks: { ledger: unknown } }).checks.ledger).toEqual({
      ok: true,
      detail: expect.stringMatching(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/test_\d+$/),
    });
    await stopAll(replicas);

    // `history` reads the same store: every slot, sent once.
    const history = await runCli(["history", "--config", setup.configPath], {
      env: { DATABASE_URL: String(setup.env.DATABASE_URL) },
    });
    expect(unwrapLines(history.stderr)).toBe("");
    expect(history.code).toBe(0);
    for (let i = 1; i <= teams; i++) expect(history.stdout).toContain(`team-${i}.weekly.`);
    expect(history.stdout.match(/slack:C0123ABCD\s+sent\s+1 try\n/g)).toHaveLength(teams);
  });

  it("a replica killed mid-post: another takes the slot over after the claim expires, posting it once", async () => {
    setup = await replicaSetup({
      teams: 1,
      databaseUrl: await createTestDatabase(),
      sendTimeout: "3s",
    });
    // Slack stores the post; the answer never reaches the replica, which is killed.
    const held = setup.slack.holdNext("chat.postMessage");
    const first = setup.start();
    await held.arrived;
    first.child.kill("SIGKILL");
    await first.exit;

    const second = setup.start();
    const slack = setup.slack;
    await second.logged("found the earlier delivery after a restart; not sending again");
    expect([...postsByKey(slack).values()]).toEqual([1]);
    const metrics = await (await fetch(`${await second.opsUrl()}/metrics`)).text();
    expect(metrics).toMatch(/insights_reporter_claims_taken_over_total\{[^}]*claim="delivery"\} 1/);
    await stopAll([second]);
  });

  it("a replica stopped past its claim: its successor sends, and its own late write is refused", async () => {
    setup = await replicaSetup({
      teams: 1,
      databaseUrl: await createTestDatabase(),
      sendTimeout: "2s",
    });
    const held = setup.slack.holdNext("chat.postMessage");
    const first = setup.start();
    await held.arrived;
    first.child.kill("SIGSTOP");
    // The post is in the channel; its answer waits for a replica that is not running.
    held.release();

    const second = setup.start();
    await second.logged("found the earlier delivery after a restart; not sending again");
    first.child.kill("SIGCONT");
    const lost = await first.logged(
      "lost the claim: another process took this delivery over; this one records nothing",
    );
    expect(lost.destination).toBe("slack:C0123ABCD");
    expect([...postsByKey(setup.slack).values()]).toEqual([1]);
    await stopAll([first, second]);
  });
});
