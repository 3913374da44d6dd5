import { afterEach, describe, expect, it } from "vitest";
import { createInsightsClient } from "../../src/insights/create-insights-client.js";
import { createRequestBudget } from "../../src/insights/request-budget.js";
import { Secret } from "../../src/secret.js";
import { query, TEST_KEY } from "./client-builders.js";
import { startRateLimitedApi } from "./rate-limited-api.js";
import { virtualTime } from "./virtual-time.js";

const START = Date.parse("2026-11-02T10:00:00Z");
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function setup(
  api: Parameters<typeof startRateLimitedApi>[1],
  budget: { maxPerMinute: number | null },
  concurrency = 8,
) {
  // How many requests the API had seen when the client learned of the first refusal or limit.
  const seen: { atRefusal: number | null } = { atRefusal: null };
  const time = virtualTime(START);
  const server = await startRateLimitedApi(time, api);
  closers.push(server.close);
  const client = createInsightsClient({
    baseUrl: server.url,
    key: new Secret(TEST_KEY),
    dispatcher: server.dispatcher,
    concurrency,
    sleep: time.sleep,
    now: time.now,
    random: () => 0.5,
    onRequest: (info) => {
      if (info.status === 429) seen.atRefusal ??= server.arrivals.length;
    },
    budget: createRequestBudget({ ...budget, now: time.now, sleep: time.sleep }),
  });
  closers.push(() => client.close());
  /** `count` callers at once, each asking for one project's insights. */
  const burst = (count: number) =>
    Promise.all(Array.from({ length: count }, (_, i) => client.getInsights(`p${i}`, query())));
  return { time, server, client, burst, seen };
}

describe("the request budget", () => {
  it("keeps every caller together within api.max_requests_per_minute over any 60 s", async () => {
    const { server, burst } = await setup({ perMinute: 30 }, { maxPerMinute: 30 });
    const answers = await burst(100);
    expect(answers).toHaveLength(100);
    expect(server.arrivals.filter((a) => a.status === 429)).toEqual([]);
    expect(server.busiestMinute()).toBeLessThanOrEqual(30);
    // It waited only as long as it had to: 100 at 30 a minute is four minutes' worth.
    expect(server.arrivals.at(-1)?.at).toBeLessThan(START + 4 * 60_000);
  });

  it("pauses every caller, not only the refused one, for a 429's Retry-After", async () => {
    const { server, burst, seen } = await setup(
      { perMinute: 10_000, refuse: { at: 3, forS: 30 } },
      { maxPerMinute: null },
      4,
    );
    await burst(20);
    const refusedAt = server.arrivals.find((a) => a.status === 429)?.at ?? 0;
    const tooSoon = server.arrivals
      .slice(seen.atRefusal ?? 0)
      .filter((a) => a.at < refusedAt + 30_000);
    // Only requests already on their way when the refusal came (at most concurrency - 1).
    expect(tooSoon.length).toBeLessThanOrEqual(3);
    expect(server.arrivals.at(-1)?.at).toBeGreaterThanOrEqual(refusedAt + 30_000);
    expect(server.arrivals.filter((a) => a.status === 429)).toHaveLength(1);
  });

  it("takes the API's X-RateLimit-Limit as the budget when none is configured", async () => {
    const { server, burst } = await setup(
      { perMinute: 20, headers: () => ({ "x-ratelimit-limit": "20" }) },
      { maxPerMinute: null },
    );
    await burst(60);
    // The first answer tells the limit; only requests sent before it came may go over it.
    expect(server.arrivals.filter((a) => a.status === 429).length).toBeLessThanOrEqual(8);
    expect(server.arrivals.slice(8).filter((a) => a.status === 429)).toEqual([]);
  });

  it("waits out X-RateLimit-Remaining: 0 until X-RateLimit-Reset, for every caller", async () => {
    const { server, burst } = await setup(
      {
        perMinute: 10_000,
        // The fifth answer says the window is spent for the next 45 seconds.
        headers: (n): Record<string, string> =>
          n === 5 ? { "x-ratelimit-remaining": "0", "x-ratelimit-reset": "45" } : {},
      },
      { maxPerMinute: null },
      4,
    );
    await burst(20);
    const spentAt = server.arrivals[4]?.at ?? 0;
    const tooSoon = server.arrivals.slice(5).filter((a) => a.at < spentAt + 45_000);
    expect(tooSoon.length).toBeLessThanOrEqual(3);
  });
});
