import { afterEach, describe, expect, it } from "vitest";
import { createSlackClients } from "../../../src/destinations/slack/slack-client.js";
import { createSlackDestination } from "../../../src/destinations/slack/slack-destination.js";
import { createLogger } from "../../../src/logger.js";
import { Secret } from "../../../src/secret.js";
import { openPostgresLedger } from "../../../src/state/postgres/postgres-ledger.js";
import { postgresSharedLimits } from "../../../src/state/postgres/postgres-shared-limits.js";
import { FAKE_SLACK_TOKEN, startFakeSlack } from "../../fake-slack/fake-slack-server.js";
import { createTestDatabase } from "../../postgres/create-test-database.js";

// Replicas on one PostgreSQL ledger keep Slack's limits together: a channel's posts one a
// second between them, and a 429 one replica was given holds the other's callers of the method.
// Each replica has a bot token of its own, so the fake Slack tells them apart.

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const TOKENS = [`${FAKE_SLACK_TOKEN}-a`, `${FAKE_SLACK_TOKEN}-b`];

async function sharedLimitsUrl(): Promise<string> {
  const url = await createTestDatabase();
  const ledger = await openPostgresLedger(url, { logger: createLogger({ level: "silent" }) });
  await ledger.close(); // it migrated the schema
  return url;
}

function sharedLimits(url: string) {
  const limits = postgresSharedLimits(url, createLogger({ level: "silent" }));
  closers.push(() => limits.close());
  return limits;
}

describe("Slack's limits, shared by replicas on PostgreSQL", () => {
  it("posts two replicas' messages to one channel within its limit, none refused", async () => {
    const url = await sharedLimitsUrl();
    const slack = await startFakeSlack({ rateLimits: true, moreTokens: TOKENS });
    closers.push(() => slack.close());
    const replicas = TOKENS.map((token) =>
      createSlackClients({
        token: new Secret(token),
        apiUrl: slack.url,
        shared: sharedLimits(url),
      }),
    );
    // Each replica alone would send its three at once (a burst of ten is its own): six at once
    // is past the channel's burst.
    await Promise.all(
      replicas.flatMap((clients, r) =>
        Array.from({ length: 3 }, (_, i) =>
          clients.paced(
            "chat.postMessage",
            () => clients.writes.chat.postMessage({ channel: "C0123ABCD", text: `${r}.${i}` }),
            undefined,
            "C0123ABCD",
          ),
        ),
      ),
    );
    expect(slack.posts).toHaveLength(6);
    expect(slack.limits?.limited).toEqual([]);
  });

  it("holds a replica's callers of a method while another replica waits out its 429", async () => {
    const url = await sharedLimitsUrl();
    const slack = await startFakeSlack({ moreTokens: TOKENS });
    closers.push(() => slack.close());
    // One clock for both replicas, moved by what is slept; each wait lasts until the test ends it.
    let clock = Date.parse("2026-11-02T10:00:00Z");
    const sleeps: { replica: number; ms: number; done: () => void }[] = [];
    let asleep: (() => void) | null = null;
    const replica = (index: number) =>
      createSlackDestination({
        clients: createSlackClients({
          token: new Secret(TOKENS[index] as string),
          apiUrl: slack.url,
          shared: sharedLimits(url),
          now: () => clock,
          sleep: (ms) =>
            new Promise<void>((resolve) => {
              sleeps.push({
                replica: index,
                ms,
                done: () => {
                  clock += ms;
                  resolve();
                },
              });
              asleep?.();
            }),
        }),
      });
    const nthSleep = (n: number) =>
      new Promise<void>((resolve) => {
        asleep = () => {
          if (sleeps.length >= n) resolve();
        };
        asleep();
      });
    const [a, b] = [replica(0), replica(1)];
    const history = () => slack.calls.filter((c) => c.method === "conversations.history");
    slack.failNext("conversations.history", "ratelimited", { retryAfter: 30 });
    const since = new Date(Date.parse("2026-11-02T00:00:00Z"));
    const first = a.findPosted("C0123ABCD", "k1", since);
    await nthSleep(1); // replica a waits out its Retry-After
    const second = b.findPosted("C0ALERTS", "k2", since);
    // Replica b is held before its call, not refused (unheld, its call would be answered).
    await Promise.race([nthSleep(2), second]);
    expect(history()).toHaveLength(1);
    expect(sleeps.map((s) => [s.replica, s.ms])).toEqual([
      [0, 30_000],
      [1, expect.any(Number)],
    ]);
    expect(sleeps[1]?.ms).toBeGreaterThan(29_000);
    for (const s of sleeps.splice(0)) s.done();
    expect(await Promise.all([first, second])).toEqual([null, null]);
    expect(history()).toHaveLength(3);
  });
});
