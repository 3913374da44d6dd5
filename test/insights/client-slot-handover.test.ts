import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../src/insights/emulator/start-emulator.js";
import { startEmulator } from "../../src/insights/emulator/start-emulator.js";
import { query, TEST_KEY, testClient } from "./client-builders.js";

// A freed slot is filled before the answer that freed it is worked on: the next request's
// headers are on the wire before the caller's continuation of the previous answer runs (a
// digest's report, say), so that work never leaves a slot of the concurrency limit idle.

const TODAY = "2026-11-16";
let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ today: TODAY, key: TEST_KEY, projects: 3 });
});

afterAll(async () => {
  await emulator.close();
});

describe("the client's concurrency limit", () => {
  it("sends the next waiting request before the caller's continuation of the answer before it", async () => {
    const { client } = testClient(emulator.url, { concurrency: 1 });
    const events: string[] = [];
    const onHeaders = (message: unknown) => {
      const path = (message as { request: { path: string } }).request.path;
      events.push(`sent ${/projects\/([^/]+)\/insights/.exec(path)?.[1] ?? path}`);
    };
    subscribe("undici:client:sendHeaders", onHeaders);
    try {
      const ids = emulator.projects.map((p) => p.id);
      const range = query({ startDate: "2026-11-10", endDate: "2026-11-14" });
      const round = () =>
        Promise.all(
          ids.map((id) => client.getInsights(id, range).then(() => events.push(`continued ${id}`))),
        );
      // A round first: the property is about kept-alive connections passing a slot on (the
      // pool opens a second one while the first waits a turn of the loop before its reuse).
      await round();
      events.length = 0;
      await round();
      const [a, b, c] = ids;
      expect(events).toEqual([
        `sent ${a}`,
        `sent ${b}`,
        `continued ${a}`,
        `sent ${c}`,
        `continued ${b}`,
        `continued ${c}`,
      ]);
    } finally {
      unsubscribe("undici:client:sendHeaders", onHeaders);
      await client.close();
    }
  });
});
