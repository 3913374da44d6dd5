import { createServer, type Server } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createSlackClients } from "../../../src/destinations/slack/slack-client.js";
import { Secret } from "../../../src/secret.js";
import { FAKE_SLACK_TOKEN } from "../../fake-slack/fake-slack-server.js";

// A Slack that cannot be reached, as a person at a terminal meets it (`alerts`, `run`) and as
// the daemon does: the CLI says so after one attempt, instead of retrying it for some 40 s in
// the foreground; the daemon keeps its bounded retries. Attempts are counted by the client's
// warnings (one per failed request) or by the connections a server saw.

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((done) => s.close(done))));
});

/** A server on loopback that resets every connection, counting them. */
async function resettingServer(): Promise<{ url: string; connections: () => number }> {
  let connections = 0;
  const server = createServer((socket) => {
    connections++;
    socket.resetAndDestroy();
  });
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/api/`, connections: () => connections };
}

/** The URL of a port on loopback that nothing listens on: every connection is refused. */
async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return `http://127.0.0.1:${port}/api/`;
}

/** A read through clients at `apiUrl`, with the number of requests that failed on the way. */
async function readThrough(apiUrl: string, foreground: boolean) {
  const warnings: string[] = [];
  const clients = createSlackClients({
    token: new Secret(FAKE_SLACK_TOKEN),
    apiUrl,
    foreground,
    // Short backoffs, so the daemon's retries run out quickly; the count is the policy's.
    minRetryDelayMs: 5,
    logger: { warn: (obj) => void warnings.push(String((obj as { detail?: unknown }).detail)) },
  });
  const error = await clients.calls.conversations.history({ channel: "C0123ABCD" }).then(
    () => null,
    (e: unknown) => e as Error,
  );
  const failedRequests = warnings.filter((w) => w.startsWith("http request failed")).length;
  return { error, failedRequests };
}

describe("a Slack that cannot be reached", () => {
  it("refusing the connection fails a foreground call after one attempt", async () => {
    const { error, failedRequests } = await readThrough(await closedPortUrl(), true);
    expect(error?.message).toMatch(/ECONNREFUSED/);
    expect(failedRequests).toBe(1);
  });

  it("refusing the connection is still retried by the daemon's clients, bounded", async () => {
    const { error, failedRequests } = await readThrough(await closedPortUrl(), false);
    expect(error?.message).toMatch(/ECONNREFUSED/);
    expect(failedRequests).toBe(6); // the first attempt and 5 retries
  });

  it("resetting the connection is retried twice in the foreground, five times by the daemon", async () => {
    const foreground = await resettingServer();
    expect((await readThrough(foreground.url, true)).error?.message).toMatch(/ECONNRESET|hang up/);
    expect(foreground.connections()).toBe(3);
    const daemon = await resettingServer();
    expect((await readThrough(daemon.url, false)).error?.message).toMatch(/ECONNRESET|hang up/);
    expect(daemon.connections()).toBe(6);
  });
});
