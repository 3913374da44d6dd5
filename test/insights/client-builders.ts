import {
  createInsightsClient,
  type InsightsClient,
  type InsightsClientOptions,
  type RequestInfo,
} from "../../src/insights/create-insights-client.js";
import type { InsightsQuery } from "../../src/insights/types.js";
import { Secret } from "../../src/secret.js";

export const TEST_KEY = "sk-live-7f3a9c-DO-NOT-LEAK";

/** A client whose sleeps are recorded, not waited, with a fixed clock and jitter draw. */
export function testClient(baseUrl: string, overrides: Partial<InsightsClientOptions> = {}) {
  const sleeps: number[] = [];
  const requests: RequestInfo[] = [];
  const client: InsightsClient = createInsightsClient({
    baseUrl,
    key: new Secret(TEST_KEY),
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    now: () => Date.parse("2026-11-02T10:00:00Z"),
    random: () => 0.5,
    onRequest: (info) => requests.push(info),
    ...overrides,
  });
  return { client, sleeps, requests };
}

export function query(overrides: Partial<InsightsQuery> = {}): InsightsQuery {
  return {
    startDate: "2026-10-29",
    endDate: "2026-11-02",
    timezone: "Europe/Berlin",
    branch: null,
    author: null,
    tags: [],
    ...overrides,
  };
}

/** The rejection of `promise`, so a test can look at the error itself. */
export async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Error) return error;
    throw new Error(`rejected with a non-Error: ${String(error)}`);
  }
  throw new Error("expected a rejection");
}
