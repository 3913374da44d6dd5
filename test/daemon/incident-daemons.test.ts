import { afterEach, describe, expect, it } from "vitest";
import { createTestDatabase } from "../postgres/create-test-database.js";
import {
  INCIDENTS,
  type IncidentSetup,
  incidentSetup,
  incidentThreads,
  teamMessages,
} from "./incident-setup.js";
import { waitFor } from "./live-setup.js";
import { stopAll } from "./replica-setup.js";

// Issue 38 item 3 with the daemon as it runs: three projects in two teams fire in one tick; one
// incident is posted with a reply per member, each team's own message names it, and nothing is
// posted twice — by one daemon on SQLite, or by two replicas sharing PostgreSQL.

let setup: IncidentSetup | null = null;
afterEach(async () => {
  await setup?.close();
  setup = null;
});

async function expectOneIncident(s: IncidentSetup): Promise<string> {
  await waitFor(
    "the incident and its members",
    () => incidentThreads(s.slack)[0]?.replies.length === 3,
    40_000,
  );
  await waitFor(
    "every team message marked",
    () => teamMessages(s.slack).every((m) => JSON.stringify(m.blocks).includes("Part of incident")),
    20_000,
  );
  const threads = incidentThreads(s.slack);
  expect(threads).toHaveLength(1);
  const [{ post, replies }] = threads as [(typeof threads)[number]];
  expect(post.text).toBe("🚨 Incident: 3 projects in 2 teams: runs down — likely shared CI");
  const key = String(post.metadata?.event_payload.key);
  expect(key).toMatch(/^incident\.\d{4}-\d\d-\d\dT\d\d:\d\d:00\.000Z$/);
  expect(replies.map((r) => r.text.split(" · ").slice(0, 2).join(" · "))).toEqual([
    "team-a · runs-low",
    "team-a · runs-low",
    "team-b · runs-low",
  ]);
  // Nothing hidden: each team's alert posted in its own channel, and links the incident.
  const own = teamMessages(s.slack);
  expect(own.map((m) => m.channel).sort()).toEqual(["C0123ABCD", "C0ALERTS"]);
  for (const message of own) {
    expect(JSON.stringify(message.blocks)).toContain(`Part of incident ${key} in ${INCIDENTS}`);
    expect(message.edits).toBe(1);
  }
  return key;
}

describe("incidents in the daemon", () => {
  it("one daemon on SQLite: one incident, its members threaded, each team message linking it", async () => {
    setup = await incidentSetup({ path: "ledger.sqlite" });
    const daemon = setup.start();
    await expectOneIncident(setup);
    await daemon.logged("incident delivered");
    await stopAll([daemon]);
    expect(incidentThreads(setup.slack)).toHaveLength(1);
  });

  it("two replicas on PostgreSQL: the incident is posted once, and its line added once", async () => {
    setup = await incidentSetup({ url: await createTestDatabase() });
    const replicas = [setup.start(), setup.start()];
    await expectOneIncident(setup);
    // Both replicas reach the instant: each runs the incident step after the alerts it ran
    // (the ledger records and claims the incident's slot once); or, when the other took every
    // alert of the instant, leaves those to it and has nothing to gather; or, when it started
    // after the other had delivered them all, finds both alerts' fires delivered as it plans
    // them (its two "scheduled" lines, logged as it plans each) and logs nothing more until the
    // next minute. On a busy machine any of these can happen, so the wait accepts each.
    await waitFor(
      "both replicas looked",
      () =>
        replicas.every(
          (r) =>
            r.logs.some((l) => {
              const msg = String(l.msg);
              return msg.startsWith("incident") || msg.startsWith("another process is running");
            }) || r.logs.filter((l) => l.msg === "scheduled").length >= 2,
        ),
      30_000,
    );
    await stopAll(replicas);
    expect(incidentThreads(setup.slack)).toHaveLength(1);
    expect(incidentThreads(setup.slack)[0]?.replies).toHaveLength(3);
  });
});
