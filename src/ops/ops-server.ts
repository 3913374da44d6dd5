import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { UsageError } from "../errors.js";

// The daemon's HTTP endpoints for operators and orchestrators: `/healthz` (the process
// answers), `/readyz` (it can do its job: each check named, 503 when one fails) and `/metrics`
// (Prometheus text). Nothing else is served.

export interface Readiness {
  ready: boolean;
  checks: Record<string, { ok: boolean; detail?: string }>;
}

export interface OpsServerOptions {
  host: string;
  /** 0 picks a free port (tests); the real one is in `url`. */
  port: number;
  readiness: () => Promise<Readiness>;
  metrics: () => Promise<{ contentType: string; body: string }>;
  /** Tighter or looser than OPS_SERVER_LIMITS (tests hand in small ones). */
  limits?: Partial<OpsServerLimits>;
}

/** What clients may hold of the daemon: connections, and how long each may stay idle. */
export interface OpsServerLimits {
  /** Connections open at once; more are closed as they arrive. */
  maxConnections: number;
  /** Time to send the request headers, from the moment of connecting (then a 408). */
  headersTimeoutMs: number;
  /** Time to send the whole request. */
  requestTimeoutMs: number;
  /** How long a kept-alive connection may wait for its next request. */
  keepAliveTimeoutMs: number;
  /** Requests on one connection: the last answer says `Connection: close`. */
  maxRequestsPerSocket: number;
  /** How often connections are checked against the two timeouts above. */
  checkIntervalMs: number;
}

/**
 * A scraper, a probe or two and an operator's curl need a handful of connections that answer
 * at once; without limits, 20,000 idle ones took the daemon to its file-descriptor limit.
 */
export const OPS_SERVER_LIMITS: OpsServerLimits = {
  maxConnections: 64,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 15_000,
  keepAliveTimeoutMs: 5_000,
  maxRequestsPerSocket: 100,
  checkIntervalMs: 1_000,
};

export interface OpsServer {
  /** `http://host:port`. */
  url: string;
  close(): Promise<void>;
}

/** Starts listening; rejects with a UsageError naming `server.port` when the port is taken. */
export async function startOpsServer(options: OpsServerOptions): Promise<OpsServer> {
  const limits = { ...OPS_SERVER_LIMITS, ...options.limits };
  const serverOptions = {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: limits.checkIntervalMs,
  };
  const server = createServer(serverOptions, (req, res) => {
    const path = new URL(req.url ?? "/", "http://ops").pathname;
    if (req.method !== "GET" && req.method !== "HEAD") {
      return send(res, 405, "text/plain; charset=utf-8", "only GET\n", { allow: "GET, HEAD" });
    }
    if (path === "/healthz") return sendJson(res, 200, { status: "ok" });
    if (path === "/readyz") {
      options.readiness().then(
        (readiness) =>
          sendJson(res, readiness.ready ? 200 : 503, {
            status: readiness.ready ? "ready" : "not ready",
            checks: readiness.checks,
          }),
        (error: unknown) => send(res, 500, "text/plain; charset=utf-8", `${String(error)}\n`),
      );
      return;
    }
    if (path === "/metrics") {
      options.metrics().then(
        ({ contentType, body }) => send(res, 200, contentType, body),
        (error: unknown) => send(res, 500, "text/plain; charset=utf-8", `${String(error)}\n`),
      );
      return;
    }
    send(res, 404, "text/plain; charset=utf-8", "not found: try /healthz, /readyz or /metrics\n");
  });
  server.maxConnections = limits.maxConnections;
  server.maxRequestsPerSocket = limits.maxRequestsPerSocket;
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) => {
      const where = `${options.host}:${options.port}`;
      const context = { host: options.host, port: options.port };
      // getaddrinfo's codes: a name that resolves to nothing (or not now: the resolver is down).
      const unresolved = ["ENOTFOUND", "EAI_AGAIN", "EAI_FAIL", "EAI_NONAME", "EAI_NODATA"];
      reject(
        error.code === "EADDRINUSE" || error.code === "EACCES" || error.code === "EADDRNOTAVAIL"
          ? new UsageError(
              `the daemon cannot listen on ${where} (${error.code}) — set server.port (and server.host) in the config to a free port, or stop what holds it`,
              context,
            )
          : unresolved.includes(error.code ?? "")
            ? new UsageError(
                `the daemon cannot listen on server.host "${options.host}": the name does not resolve to an address (${error.code}) — set server.host to 127.0.0.1 (this machine only), 0.0.0.0 (every interface, as in a container) or a name of this machine`,
                context,
              )
            : error,
      );
    });
    server.listen(options.port, options.host, () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(":") ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  send(res, status, "application/json; charset=utf-8", `${JSON.stringify(body)}\n`);
}

function send(
  res: ServerResponse,
  status: number,
  contentType: string,
  body: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { "content-type": contentType, "cache-control": "no-store", ...headers });
  res.end(res.req.method === "HEAD" ? undefined : body);
}
