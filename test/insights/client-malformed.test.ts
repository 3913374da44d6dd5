import { afterEach, describe, expect, it } from "vitest";
import { MalformedResponseError } from "../../src/errors.js";
import { startEmulator } from "../../src/insights/emulator/start-emulator.js";
import { query, rejection, TEST_KEY, testClient } from "./client-builders.js";
import { json, raw, startScriptedServer } from "./scripted-server.js";
import { wireInsights } from "./wire-insights.js";

/**
 * A 200 with a body cut short or of the wrong shape (a proxy dropping the connection, an
 * upstream hiccup) is retried like a 5xx, so one bad answer does not leave a project out.
 */

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function scripted() {
  const server = await startScriptedServer(json(200, wireInsights("2026-10-29", "2026-11-02")));
  cleanups.push(() => server.close());
  return server;
}

function client(url: string, overrides: Parameters<typeof testClient>[1] = {}) {
  const made = testClient(url, overrides);
  cleanups.push(() => made.client.close());
  return made;
}

const GOOD = JSON.stringify(wireInsights("2026-10-29", "2026-11-02"));
const TRUNCATED = raw(200, GOOD.slice(0, GOOD.length / 2), { "content-type": "application/json" });
const WRONG_SHAPE = json(200, { ...wireInsights("2026-10-29", "2026-11-02"), runs: [] });

describe("malformed 200s", () => {
  it("retries a truncated body, then a wrong-shaped one, and returns the good answer", async () => {
    const server = await scripted();
    server.queue(TRUNCATED, WRONG_SHAPE);
    const { client: api, sleeps, requests } = client(server.url);
    const insights = await api.getInsights("p", query());
    const clean = await client(server.url).client.getInsights("p", query());
    expect(insights).toEqual(clean);
    expect(requests.map((r) => [r.status, r.attempt])).toEqual([
      [200, 1],
      [200, 2],
      [200, 3],
    ]);
    // The same backoff as a 5xx: random() = 0.5 → half of 500 and 1000 ms.
    expect(sleeps).toEqual([250, 500]);
  });

  it("names the project and the field after the last attempt", async () => {
    const server = await scripted();
    server.queue(WRONG_SHAPE, WRONG_SHAPE, WRONG_SHAPE);
    const { client: api } = client(server.url, { maxAttempts: 3 });
    const error = await rejection(api.getInsights("pdqmxlz", query()));
    expect(error).toBeInstanceOf(MalformedResponseError);
    expect(error.message).toContain('project "pdqmxlz"');
    expect(error.message).toContain("runs: expected object, received array");
    expect(error.message).toContain("tried 3 times");
    expect((error as MalformedResponseError).context).toMatchObject({
      path: "/projects/pdqmxlz/insights",
      projectId: "pdqmxlz",
      field: "runs",
      attempts: 3,
    });
    expect(server.requests).toHaveLength(3);
  });

  it("gives every project of an emulator with malformed:0.3 the figures of a fault-free one", async () => {
    const options = { today: "2026-11-16", key: TEST_KEY, projects: 6, seed: "malformed" };
    const faulty = await startEmulator({ ...options, faults: "malformed:0.3" });
    cleanups.push(() => faulty.close());
    const clean = await startEmulator(options);
    cleanups.push(() => clean.close());
    const range = query({ startDate: "2026-10-20", endDate: "2026-11-15" });
    const fetchAll = (url: string) => {
      const { client: api, requests } = client(url, { concurrency: 2 });
      const all = Promise.all(faulty.projects.map((p) => api.getInsights(p.id, range)));
      return { all, requests };
    };
    const withFaults = fetchAll(faulty.url);
    const expected = await fetchAll(clean.url).all;
    expect(await withFaults.all).toEqual(expected);
    // The seed does inject both kinds, so some requests needed more than one attempt.
    const injected = new Set(faulty.requestLog.map((entry) => entry.fault));
    expect(injected).toEqual(new Set([undefined, "malformed-json", "malformed-shape"]));
    expect(withFaults.requests.some((r) => r.attempt > 1)).toBe(true);
  });
});
