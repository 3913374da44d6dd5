import { afterEach, describe, expect, it } from "vitest";
import { createInsightsClient } from "../../src/insights/create-insights-client.js";
import { createRequestBudget, sharedApiWindow } from "../../src/insights/request-budget.js";
import { createLogger } from "../../src/logger.js";
import { Secret } from "../../src/secret.js";
import { openPostgresLedger } from "../../src/state/postgres/postgres-ledger.js";
import { postgresSharedLimits } from "../../src/state/postgres/postgres-shared-limits.js";
import { createTestDatabase } from "../postgres/create-test-database.js";
import { query, TEST_KEY } from "./client-builders.js";
import { startRateLimitedApi } from "./rate-limited-api.js";
import { virtualTime } from "./virtual-time.js";

// Replicas on one PostgreSQL ledger share api.max_requests_per_minute: each takes its turns
// from a window kept in the database, so together they stay within it over any 60 s.

const START = Date.parse("2026-11-02T10:00:00Z");
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

describe("the request budget of replicas on PostgreSQL", () => {
  it("keeps two replicas together within api.max_requests_per_minute over any 60 s", async () => {
    const url = await createTestDatabase();
    const logger = createLogger({ level: "silent" });
    const ledger = await openPostgresLedger(url, { logger }); // migrates the schema
    closers.push(() => ledger.close());
    const time = virtualTime(START);
    const api = await startRateLimitedApi(time, { perMinute: 20 });
    closers.push(api.close);
    const replica = () => {
      const limits = postgresSharedLimits(url, logger);
      closers.push(() => limits.close());
      const window = sharedApiWindow(limits);
      // The database's answer is I/O the virtual clock must not run past.
      const shared = {
        take: async (wanted: number, limit: number, atMs: number) => {
          time.hold();
          try {
            return await window.take(wanted, limit, atMs);
          } finally {
            time.release();
          }
        },
      };
      const client = createInsightsClient({
        baseUrl: api.url,
        key: new Secret(TEST_KEY),
        dispatcher: api.dispatcher,
        concurrency: 4,
        sleep: time.sleep,
        now: time.now,
        random: () => 0.5,
        budget: createRequestBudget({ maxPerMinute: 20, now: time.now, sleep: time.sleep, shared }),
      });
      closers.push(() => client.close());
      return client;
    };
    const [a, b] = [replica(), replica()];
    const burst = (client: typeof a, prefix: string) =>
      Promise.all(
        Array.from({ length: 30 }, (_, i) => client.getInsights(`${prefix}${i}`, query())),
      );
    const answers = await Promise.all([burst(a, "a"), burst(b, "b")]);
    expect(answers.flat()).toHaveLength(60);
    expect(api.arrivals.filter((r) => r.status === 429)).toEqual([]);
    expect(api.busiestMinute()).toBeLessThanOrEqual(20);
  });

  it("counts requests less than 61 s apart in one minute, as one process's budget does", async () => {
    const url = await createTestDatabase();
    const logger = createLogger({ level: "silent" });
    const ledger = await openPostgresLedger(url, { logger });
    closers.push(() => ledger.close());
    const limits = postgresSharedLimits(url, logger);
    closers.push(() => limits.close());
    const window = sharedApiWindow(limits);
    expect(await window.take(1, 1, START + 999)).toMatchObject({ granted: 1 });
    // 60.5 s on: the API, counting arrivals that lag sending unevenly, may see both in its
    // minute (26 refusals in a scale run of three replicas when the window was 60 s).
    expect(await window.take(1, 1, START + 61_499)).toMatchObject({ granted: 0 });
    expect(await window.take(1, 1, START + 62_000)).toMatchObject({ granted: 1 });
  });
});
