import { get } from "node:http";
import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { type OpsServer, startOpsServer } from "../../src/ops/ops-server.js";

/**
 * The ops server answers orchestrators, not the internet: a flood of idle connections must not
 * take the daemon to its file-descriptor limit (20,000 did, and a SIGHUP reload then failed
 * with EMFILE). Small limits are handed in so each test takes a fraction of a second.
 */

const servers: OpsServer[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function start(limits: Parameters<typeof startOpsServer>[0]["limits"]): Promise<OpsServer> {
  const server = await startOpsServer({
    host: "127.0.0.1",
    port: 0,
    readiness: async () => ({ ready: true, checks: {} }),
    metrics: async () => ({ contentType: "text/plain", body: "" }),
    limits,
  });
  servers.push(server);
  return server;
}

/** A connection that sends nothing, once it is established. */
function idleConnection(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => resolve(socket));
    socket.resume(); // read what the server sends, so its closing is seen
    socket.on("error", () => {}); // a reset by the server is what some tests expect
    socket.once("error", reject);
    sockets.push(socket);
  });
}

/** Whether the server closed the socket within `ms`. */
function closedWithin(socket: Socket, ms: number): Promise<boolean> {
  if (socket.closed) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    socket.once("close", () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** The status of GET /healthz on a fresh connection, or the error that ended it. */
function getHealthz(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = get(`${url}/healthz`, { agent: false, timeout: 1_000 }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("timeout", () => req.destroy(new Error("no answer within 1s")));
    req.on("error", reject);
  });
}

/** GET /healthz, retried briefly while the server notices connections that went away. */
async function healthz(url: string): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await getHealthz(url);
    } catch (error) {
      if (attempt >= 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}

describe("ops server limits", () => {
  it("closes connections beyond maxConnections, and answers /healthz once they are gone", async () => {
    const server = await start({ maxConnections: 3 });
    const held = await Promise.all([1, 2, 3].map(() => idleConnection(server.url)));
    const extra = await idleConnection(server.url).catch(() => null);
    if (extra) expect(await closedWithin(extra, 1_000)).toBe(true);
    for (const socket of held) expect(socket.closed).toBe(false);
    for (const socket of held) socket.destroy();
    expect(await healthz(server.url)).toBe(200);
  });

  it("closes a connection that sends nothing once the header timeout passes", async () => {
    const server = await start({
      headersTimeoutMs: 200,
      requestTimeoutMs: 300,
      checkIntervalMs: 50,
    });
    const idle = await idleConnection(server.url);
    expect(await closedWithin(idle, 1_500)).toBe(true);
    expect(await healthz(server.url)).toBe(200);
  });

  it("ends a kept-alive connection after maxRequestsPerSocket requests", async () => {
    const server = await start({ maxRequestsPerSocket: 2, keepAliveTimeoutMs: 100 });
    const socket = await idleConnection(server.url);
    const responses: string[] = [];
    const request = "GET /healthz HTTP/1.1\r\nHost: ops\r\n\r\n";
    socket.setEncoding("utf8").on("data", (chunk: string) => {
      responses.push(chunk);
      if (responses.length === 1) socket.write(request);
    });
    socket.write(request);
    // Node says "Connection: close" on the last one and drops the socket after keepAliveTimeout.
    expect(await closedWithin(socket, 2_500)).toBe(true);
    expect(responses.map((r) => /^connection: (.*)\r$/im.exec(r)?.[1])).toEqual([
      "keep-alive",
      "close",
    ]);
  });
});
