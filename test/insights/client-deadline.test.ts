import { Dispatcher } from "undici";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { UpstreamError } from "../../src/errors.js";
import { Secret } from "../../src/secret.js";
import { query, testClient } from "./client-builders.js";
import { json, type ScriptedServer, startScriptedServer } from "./scripted-server.js";
import { wireInsights } from "./wire-insights.js";

/**
 * Every API attempt ends by the client's own deadline, whatever the dispatcher does: a
 * request the pool never settles (not even on its abort signal) must not hang a run.
 */

/** Takes every request and never answers it, nor honours its abort signal. */
class SilentDispatcher extends Dispatcher {
  override dispatch(): boolean {
    return true;
  }
  override async close(): Promise<void> {}
  override async destroy(): Promise<void> {}
}

let server: ScriptedServer;
const cleanups: (() => Promise<void>)[] = [];

beforeEach(async () => {
  server = await startScriptedServer(json(200, wireInsights("2026-10-29", "2026-11-02")));
  cleanups.push(() => server.close());
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** What `promise` settled with ("resolved" or its error), or "pending" after `ms`. */
async function settledWithin(promise: Promise<unknown>, ms: number): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const pending = new Promise((resolve) => {
    timer = setTimeout(() => resolve("pending"), ms);
  });
  const settled = promise.then(
    () => "resolved",
    (error: unknown) => error,
  );
  try {
    return await Promise.race([settled, pending]);
  } finally {
    clearTimeout(timer);
  }
}

describe("the client's own deadline", () => {
  it("ends an attempt that a dispatcher never answers, naming the path", async () => {
    const made = testClient(server.url, {
      dispatcher: new SilentDispatcher(),
      timeoutMs: 100,
      maxAttempts: 2,
    });
    cleanups.push(() => made.client.close());
    const error = await settledWithin(made.client.getInsights("p", query()), 2_000);
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as Error).message).toContain(
      "did not answer GET /projects/p/insights in time (tried 2 times)",
    );
    expect(made.requests.map((r) => r.status)).toEqual(["error", "error"]);
  });

  it("settles every call when the pool refuses the key's header and its connections run out", async () => {
    // A key file saved with a BOM or an extra newline: undici refuses the header, and once
    // its connections are used up, later requests used to wait forever.
    const made = testClient(server.url, {
      key: new Secret("\ufeffkey-with-a-bom\n"),
      concurrency: 1,
      timeoutMs: 150,
      maxAttempts: 1,
    });
    const outcomes = [];
    for (let i = 0; i < 3; i++) {
      outcomes.push(await settledWithin(made.client.getInsights("p", query()), 2_000));
    }
    for (const outcome of outcomes) expect(outcome).toBeInstanceOf(UpstreamError);
    expect(server.requests).toHaveLength(0);
    expect(await settledWithin(made.client.close(), 2_000)).toBe("resolved");
  });
});
