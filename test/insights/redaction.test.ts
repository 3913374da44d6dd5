import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ReporterError } from "../../src/errors.js";
import { checkBaseUrl } from "../../src/insights/check-base-url.js";
import type { InsightsClient } from "../../src/insights/create-insights-client.js";
import { query, rejection, TEST_KEY, testClient } from "./client-builders.js";
import {
  hang,
  json,
  type Reply,
  raw,
  reset,
  type ScriptedServer,
  startScriptedServer,
} from "./scripted-server.js";
import { wireInsights } from "./wire-insights.js";

/** Every way an error may end up printed or logged. */
function renderings(error: Error): Record<string, string> {
  const context = error instanceof ReporterError ? error.context : {};
  return {
    string: String(error),
    message: error.message,
    stack: error.stack ?? "",
    json: JSON.stringify(error),
    inspect: inspect(error, { depth: 10 }),
    context: JSON.stringify(context),
    contextInspect: inspect(context, { depth: 10 }),
  };
}

function expectNoKey(error: Error): void {
  for (const [how, text] of Object.entries(renderings(error))) {
    expect(text, `key leaked through ${how}`).not.toContain(TEST_KEY);
  }
}

// A hostile upstream: every error body and redirect echoes the key back.
const echo = `key ${TEST_KEY} refused`;
const malformed = wireInsights("2026-10-29", "2026-11-02");
(malformed.runs.runs_volume_data[1] as Record<string, unknown>).passed_runs_count = TEST_KEY;

const paths: [string, Reply[], Partial<Parameters<typeof testClient>[1]>][] = [
  ["401", [json(401, { error: `Could not authenticate, invalid API Key ${TEST_KEY}` })], {}],
  [
    "lookback",
    [
      json(400, {
        error: `most recent 3 months (${TEST_KEY}). Use a date range starting on or after 2026-08-02`,
      }),
    ],
    {},
  ],
  ["invalid range", [json(400, { error: `Invalid date range format ${TEST_KEY}` })], {}],
  ["bad timezone", [json(400, { error: `timezone ${TEST_KEY} is unrecognised` })], {}],
  ["unknown project", [json(404, { error: echo })], {}],
  ["5xx exhaustion", [json(503, { error: echo }), json(503, { error: echo })], { maxAttempts: 2 }],
  ["reset", [reset, reset], { maxAttempts: 2 }],
  ["timeout", [hang], { maxAttempts: 1, timeoutMs: 100 }],
  ["non-JSON body", [raw(200, `<html>${TEST_KEY}</html>`)], { maxAttempts: 1 }],
  ["wrong-shaped body", [json(200, malformed)], { maxAttempts: 1 }],
  ["redirect", [raw(301, echo, { location: `https://evil.test/?key=${TEST_KEY}` })], {}],
  ["long Retry-After", [json(429, { error: echo }, { "retry-after": "99999" })], {}],
];

describe("the API key never shows in errors or in the client", () => {
  let server: ScriptedServer;
  let seenKeys: (string | undefined)[];
  beforeAll(async () => {
    server = await startScriptedServer();
    seenKeys = [];
  });
  afterAll(() => server.close());

  it.each(paths)("%s", async (_name, replies, overrides) => {
    server.queue(...replies);
    const before = server.requests.length;
    const { client } = testClient(server.url, overrides);
    try {
      const error = await rejection(
        client.getInsights("pdqmxlz", query({ timezone: "Mars/Olympus" })),
      );
      expect(error).toBeInstanceOf(ReporterError);
      expectNoKey(error);
      // The key really travelled, so the search above is meaningful.
      seenKeys.push(...server.requests.slice(before).map((r) => r.headers["x-api-key"] as string));
      expect(seenKeys.at(-1)).toBe(TEST_KEY);
    } finally {
      await client.close();
    }
  });

  it("a 404 on the project list", async () => {
    server.queue(raw(404, echo));
    const { client } = testClient(server.url);
    const error = await rejection(client.listProjects());
    await client.close();
    expectNoKey(error);
  });

  it("a refused connection", async () => {
    const gone = await startScriptedServer();
    await gone.close();
    const { client } = testClient(gone.url);
    const error = await rejection(client.getInsights("p", query()));
    await client.close();
    expectNoKey(error);
  });

  it.each([
    `https://me:${TEST_KEY}@acme.testinsights.io/api/external/v1`,
    `https://me:${TEST_KEY}@{workspace}.testinsights.io/api/external/v1`,
    `https://acme.testinsights.io/api/external/v1?key=${TEST_KEY}`,
    `http://acme.testinsights.io/api/external/v1#${TEST_KEY}`,
  ])("a bad base URL carrying the key (%#)", (url) => {
    let caught: unknown;
    try {
      checkBaseUrl(url);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ReporterError);
    expectNoKey(caught as ReporterError);
  });

  it("printing the client shows no key", async () => {
    const { client } = testClient(server.url);
    const shown: InsightsClient = client;
    expect(inspect(shown, { depth: 10, showHidden: true })).not.toContain(TEST_KEY);
    expect(String(shown)).not.toContain(TEST_KEY);
    expect(JSON.stringify(shown) ?? "").not.toContain(TEST_KEY);
    await client.close();
  });
});
