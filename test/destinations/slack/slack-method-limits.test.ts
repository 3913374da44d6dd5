import { once } from "node:events";
import { type AddressInfo, connect, createServer, type Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { createSlackClients } from "../../../src/destinations/slack/slack-client.js";
import { createSlackDestination } from "../../../src/destinations/slack/slack-destination.js";
import { createSlackPacer } from "../../../src/destinations/slack/slack-pacer.js";
import { Secret } from "../../../src/secret.js";
import { FAKE_SLACK_TOKEN, startFakeSlack } from "../../fake-slack/fake-slack-server.js";

// Slack's limits are per method (its tiers) and, for chat.postMessage, per channel: the pacer
// keeps every caller of a method within them, and a 429's Retry-After holds them all. The
// clock is the test's own and moves by what was slept.

function pacer() {
  let clock = 1_000_000;
  const slept: number[] = [];
  const pace = createSlackPacer({
    now: () => clock,
    sleep: async (ms) => {
      slept.push(ms);
      clock += ms;
    },
  });
  return { pace, slept, now: () => clock };
}

describe("Slack's per-method limits", () => {
  it("posts to one channel about once a second after a short burst, and to others freely", async () => {
    const { pace, now } = pacer();
    const started = now();
    for (let i = 0; i < 20; i++) await pace.turn("chat.postMessage", "C1");
    // A burst of 10, then one a second.
    expect(now() - started).toBeGreaterThanOrEqual(9_000);
    expect(now() - started).toBeLessThanOrEqual(11_000);
    const before = now();
    await pace.turn("chat.postMessage", "C2");
    expect(now()).toBe(before);
  });

  it("keeps a Tier 2 method within 20 a minute", async () => {
    const { pace, now } = pacer();
    const started = now();
    for (let i = 0; i < 40; i++) await pace.turn("conversations.list");
    expect(now() - started).toBeGreaterThanOrEqual(60_000);
  });

  it("holds every caller of a method for a 429's Retry-After, not only the refused one", async () => {
    const { pace, now } = pacer();
    const refusedAt = now();
    await pace.hold("conversations.history", undefined, 30_000);
    await pace.turn("conversations.history");
    expect(now()).toBeGreaterThanOrEqual(refusedAt + 30_000);
    // Another method is not held.
    const before = now();
    await pace.turn("chat.update");
    expect(now()).toBe(before);
  });

  it("after a 429's Retry-After, goes on at the limit's rate instead of spending its burst again", async () => {
    const { pace, now } = pacer();
    const refusedAt = now();
    await pace.hold("chat.postMessage", "C1", 1_000);
    for (let i = 0; i < 3; i++) await pace.turn("chat.postMessage", "C1");
    // One at the Retry-After's end, then one a second: Slack's bucket is as empty as ours.
    expect(now()).toBeGreaterThanOrEqual(refusedAt + 3_000);
  });
});

describe("a rate-limited Slack method, over the fake Slack", () => {
  it("holds a second caller of the method, in another channel, while the first waits out its 429", async () => {
    const slack = await startFakeSlack();
    try {
      const sleeps: { ms: number; done: () => void }[] = [];
      let asleep: (() => void) | null = null;
      let clock = 1_000_000;
      const clients = createSlackClients({
        token: new Secret(FAKE_SLACK_TOKEN),
        apiUrl: slack.url,
        now: () => clock,
        // Each wait lasts until the test ends it: the clock then moves by what was slept.
        sleep: (ms) =>
          new Promise<void>((resolve) => {
            sleeps.push({
              ms,
              done: () => {
                clock += ms;
                resolve();
              },
            });
            asleep?.();
          }),
      });
      const destination = createSlackDestination({ clients });
      const asleepNow = () =>
        sleeps.length > 0 ? Promise.resolve() : new Promise<void>((r) => (asleep = r));
      slack.failNext("conversations.history", "ratelimited", { retryAfter: 30 });
      const since = new Date(Date.parse("2026-11-02T00:00:00Z"));
      const first = destination.findPosted("C0123ABCD", "k1", since);
      await asleepNow(); // the first caller waits out its Retry-After
      asleep = null;
      const history = () => slack.calls.filter((c) => c.method === "conversations.history");
      expect(history()).toHaveLength(1);
      const second = destination.findPosted("C0ALERTS", "k2", since);
      // The second caller waits too, before its call: it is held, not refused.
      await new Promise<void>((resolve) => {
        asleep = resolve;
        if (sleeps.length >= 2) resolve();
      });
      expect(history()).toHaveLength(1);
      expect(sleeps.map((s) => s.ms)).toEqual([30_000, expect.any(Number)]);
      expect(sleeps[1]?.ms).toBeGreaterThan(0);
      for (const s of sleeps.splice(0)) s.done();
      expect(await Promise.all([first, second])).toEqual([null, null]);
      expect(history()).toHaveLength(3);
    } finally {
      await slack.close();
    }
  });
});

describe("a 429 the daemon has not read yet", () => {
  it("holds a turn asked for before the loop got to it: answers that came in are read first", async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const { pace, slept } = pacer();
    const read = new Promise<Socket>((resolve) => server.once("connection", resolve));
    const client = connect(port, "127.0.0.1");
    await once(client, "connect");
    const answers = await read;
    try {
      // The 429 reaches this process's socket while its loop is busy (stalled, at scale) …
      answers.once("data", () => void pace.hold("chat.postMessage", "C1", 1_000));
      client.write("429");
      // … and a turn is asked for before the loop has read it.
      await pace.turn("chat.postMessage", "C1");
      expect(slept).toEqual([1_000]);
    } finally {
      client.destroy();
      answers.destroy();
      server.close();
    }
  });
});
