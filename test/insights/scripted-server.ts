import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A tiny HTTP server on 127.0.0.1 that answers from a queue of scripted replies, for client tests. */

export type Reply = (req: IncomingMessage, res: ServerResponse) => void;

export interface SeenRequest {
  method: string;
  /** Path and query as sent. */
  url: string;
  headers: IncomingMessage["headers"];
}

export interface ScriptedServer {
  /** Base URL ending with /api/external/v1. */
  url: string;
  origin: string;
  requests: SeenRequest[];
  /** Replies used in order, one per request; `fallback` answers once the queue is empty. */
  queue(...replies: Reply[]): void;
  /** Requests being answered right now, and the most there ever were at once. */
  inFlight: { now: number; max: number };
  /** TCP connections the server has accepted. */
  connections: () => number;
  close(): Promise<void>;
}

export async function startScriptedServer(fallback: Reply = json(500, { error: "unscripted" })) {
  const replies: Reply[] = [];
  const requests: SeenRequest[] = [];
  const inFlight = { now: 0, max: 0 };
  const server = createServer((req, res) => {
    requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers });
    inFlight.now++;
    inFlight.max = Math.max(inFlight.max, inFlight.now);
    const done = () => inFlight.now--;
    res.on("close", done);
    (replies.shift() ?? fallback)(req, res);
  });
  let connections = 0;
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  const scripted: ScriptedServer = {
    url: `${origin}/api/external/v1`,
    origin,
    requests,
    inFlight,
    connections: () => connections,
    queue: (...more) => replies.push(...more),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return scripted;
}

/** Answers `status` with a JSON body and optional headers. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
  return (_req, res) => {
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(JSON.stringify(body));
  };
}

/** Answers with a raw body, e.g. HTML from a login page. */
export function raw(status: number, body: string, headers: Record<string, string> = {}): Reply {
  return (_req, res) => {
    res.writeHead(status, headers);
    res.end(body);
  };
}

/** Waits `ms` before handing over to `reply`. */
export function later(ms: number, reply: Reply): Reply {
  return (req, res) => {
    setTimeout(() => reply(req, res), ms);
  };
}

/** Drops the connection without a response: a reset as the client sees it. */
export const reset: Reply = (req) => {
  req.socket.resetAndDestroy();
};

/** Never answers; the client's deadline has to end it. */
export const hang: Reply = () => {};
